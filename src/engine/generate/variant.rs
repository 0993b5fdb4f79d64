//! A generation variant as data: `variants/<name>/variant.toml` holds the prompt template,
//! the model and its parameters, and the strategy. Untrusted like every workspace file: it
//! may choose the model and the prompt, never where the request (and the key) goes.

use serde::Deserialize;

use crate::evaluator::GenParams;

/// The file that makes a variant folder a generation variant.
pub const FILE_NAME: &str = "variant.toml";
/// `max_tokens` when the variant does not say.
pub const DEFAULT_MAX_TOKENS: u32 = 2048;
/// The largest `max_tokens` a variant may ask for (a bound on what one answer may cost).
pub const MAX_MAX_TOKENS: u32 = 32_000;

/// How an output is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    /// The template alone.
    Naive,
    /// The template plus the constraints the notes reader extracts (plans).
    Constraints,
    /// Generate, run the deterministic checks, surface a failing output as rejected.
    Validate,
    /// Generate, validate, one repair with the errors, re-validate.
    Repair,
}

impl Strategy {
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::Naive => "naive",
            Strategy::Constraints => "constraints",
            Strategy::Validate => "validate",
            Strategy::Repair => "repair",
        }
    }
    /// Whether the prompt carries the extracted constraints.
    pub fn adds_constraints(self) -> bool {
        self != Strategy::Naive
    }
    /// Whether a failing output is surfaced as rejected.
    pub fn validates(self) -> bool {
        matches!(self, Strategy::Validate | Strategy::Repair)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    template: String,
    #[serde(default)]
    system: Option<String>,
    strategy: Strategy,
    #[serde(default)]
    model: Option<String>,
    #[serde(default)]
    temperature: Option<f64>,
    #[serde(default)]
    max_tokens: Option<u32>,
    /// Checked against the user's provider (see `trust::variant_endpoint`).
    #[serde(default)]
    provider: Option<String>,
    #[serde(default)]
    base_url: Option<String>,
    #[serde(default)]
    endpoint: Option<String>,
    #[serde(default)]
    api_key: Option<toml::Value>,
    #[serde(default)]
    api_key_env: Option<toml::Value>,
}

/// The keys of a variant file that touch where requests go, for the trust policy to
/// decide (`workspace::trust::variant_endpoint`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VariantKeys {
    pub provider: Option<String>,
    /// `base_url` or `endpoint` is set.
    pub endpoint: bool,
    /// `api_key` or `api_key_env` is set.
    pub key: bool,
}

/// A loaded variant.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub template: String,
    pub system: Option<String>,
    pub strategy: Strategy,
    /// `None`: the user's evaluator model.
    pub model: Option<String>,
    pub temperature: f64,
    pub max_tokens: u32,
    /// What the file says about providers, endpoints and keys (never used as such).
    pub keys: VariantKeys,
}

/// The placeholders a template may hold.
pub const PLACEHOLDERS: [&str; 6] = [
    "source",
    "notes",
    "prompt",
    "current_time",
    "timezone",
    "scenario",
];

impl Variant {
    /// Read `text` (the file `label`) for variant `name`.
    pub fn parse(name: &str, label: &str, text: &str) -> Result<Variant, String> {
        let raw: Raw = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|s| position(text, s.start))
                .unwrap_or_default();
            format!("{label}{at}: {}", e.message())
        })?;
        let keys = VariantKeys {
            provider: raw.provider.clone(),
            endpoint: raw.base_url.is_some() || raw.endpoint.is_some(),
            key: raw.api_key.is_some() || raw.api_key_env.is_some(),
        };
        let temperature = raw.temperature.unwrap_or(0.0);
        if !(0.0..=2.0).contains(&temperature) {
            return Err(format!("{label}: temperature must be between 0 and 2"));
        }
        let max_tokens = raw.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        if max_tokens == 0 || max_tokens > MAX_MAX_TOKENS {
            return Err(format!(
                "{label}: max_tokens must be between 1 and {MAX_MAX_TOKENS}"
            ));
        }
        if let Some(bad) = unknown_placeholder(&raw.template) {
            return Err(format!(
                "{label}: unknown placeholder {{{{{bad}}}}} in template (known: {})",
                PLACEHOLDERS.join(", ")
            ));
        }
        Ok(Variant {
            name: name.to_string(),
            template: raw.template,
            system: raw.system,
            strategy: raw.strategy,
            model: raw.model.filter(|m| !m.trim().is_empty()),
            temperature,
            max_tokens,
            keys,
        })
    }

    /// The parameters of its calls; `default_model` is the user's evaluator model.
    pub fn params(&self, default_model: &str) -> GenParams {
        GenParams {
            model: self.model.clone().unwrap_or_else(|| default_model.into()),
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        }
    }
}

/// ` (line L, column C)` of a byte offset.
fn position(text: &str, at: usize) -> String {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!(":{line}:{col}")
}

fn unknown_placeholder(template: &str) -> Option<String> {
    placeholders(template)
        .map(|(_, _, name)| name)
        .find(|n| !PLACEHOLDERS.contains(&n.as_str()))
}

/// Every `{{name}}` of a template: (start, end, name), in order.
fn placeholders(template: &str) -> impl Iterator<Item = (usize, usize, String)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let open = template[at..].find("{{")? + at;
        let close = template[open + 2..].find("}}")? + open + 2;
        at = close + 2;
        Some((
            open,
            close + 2,
            template[open + 2..close].trim().to_string(),
        ))
    })
}

/// The template with each placeholder replaced by its value, in one pass: a value is
/// never searched for placeholders itself (notes holding `{{prompt}}` stay as they are).
pub fn render(template: &str, value: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(template.len());
    let mut last = 0;
    for (start, end, name) in placeholders(template) {
        out.push_str(&template[last..start]);
        out.push_str(&value(&name));
        last = end;
    }
    out.push_str(&template[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = "strategy = \"repair\"\nmodel = \"planner-1\"\ntemperature = 0.3\ntemplate = \"Plan {{ current_time }} {{timezone}}: {{notes}}\"\n";

    #[test]
    fn a_variant_reads_its_template_model_and_strategy() {
        let v = Variant::parse("v4", "variant.toml", OK).unwrap();
        assert_eq!(v.strategy, Strategy::Repair);
        assert_eq!(v.params("default").model, "planner-1");
        assert_eq!(v.max_tokens, DEFAULT_MAX_TOKENS);
        let text = render(&v.template, &|k| match k {
            "notes" => "call {{prompt}}".into(),
            k => k.to_uppercase(),
        });
        assert_eq!(text, "Plan CURRENT_TIME TIMEZONE: call {{prompt}}");
    }

    #[test]
    fn bad_input_is_an_error_naming_the_file_and_place() {
        let e = Variant::parse(
            "v",
            "a/variant.toml",
            "template = 3\nstrategy = \"naive\"\n",
        )
        .unwrap_err();
        assert!(e.starts_with("a/variant.toml:1:"), "{e}");
        let e = Variant::parse("v", "f", "template = \"{{nope}}\"\nstrategy = \"naive\"\n")
            .unwrap_err();
        assert!(e.contains("unknown placeholder {{nope}}"), "{e}");
        let e = Variant::parse("v", "f", "template = \"x\"\nstrategy = \"clever\"\n").unwrap_err();
        assert!(e.contains("clever"), "{e}");
        let e = Variant::parse(
            "v",
            "f",
            "template = \"x\"\nstrategy = \"naive\"\nmax_tokens = 0\n",
        )
        .unwrap_err();
        assert!(e.contains("max_tokens"), "{e}");
    }

    #[test]
    fn the_keys_that_touch_the_endpoint_are_kept_for_the_trust_policy() {
        let with = |extra: &str| {
            Variant::parse(
                "v",
                "f",
                &format!("template = \"x\"\nstrategy = \"naive\"\n{extra}"),
            )
            .unwrap()
            .keys
        };
        assert!(with("base_url = \"https://evil.example\"\n").endpoint);
        assert!(with("api_key_env = \"HOME\"\n").key);
        assert_eq!(
            with("provider = \"openai\"\n").provider.as_deref(),
            Some("openai")
        );
        assert_eq!(with(""), VariantKeys::default());
    }
}
