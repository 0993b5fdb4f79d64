//! A generated output as a file: a front matter naming its scenario, variant, model, the
//! generation request and how it ended (with the scenario's `current_time` and `timezone`,
//! so the plan validators read the same clock), then the output as the model wrote it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Outcome, Scenario, Strategy};
use crate::engine::document::front_matter;
use crate::model::RepairStatus;

/// The `generation:` block of a generated output's front matter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenerationMeta {
    pub scenario: String,
    pub variant: String,
    pub strategy: Strategy,
    pub provider: String,
    pub model: String,
    /// The hash of the exact request (prompt, model, parameters): its cache key.
    pub request_id: String,
    pub outcome: Outcome,
    /// How the repair ended, when one was needed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair: Option<RepairStatus>,
    /// Tokens the provider reported for the calls that made this output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
}

impl GenerationMeta {
    /// A repair call was made (whatever came of it).
    pub fn repair_attempted(&self) -> bool {
        matches!(
            self.repair,
            Some(RepairStatus::Repaired | RepairStatus::Rejected | RepairStatus::Failed)
        )
    }
}

#[derive(Serialize)]
struct Head<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    current_time: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timezone: Option<&'a str>,
    variant: &'a str,
    generation: &'a GenerationMeta,
}

/// The output file: front matter, then `body` (trimmed, one final newline).
pub fn compose(scenario: &Scenario, meta: &GenerationMeta, body: &str) -> String {
    let head = Head {
        current_time: scenario.current_time.as_deref(),
        timezone: scenario.timezone.as_deref(),
        variant: &meta.variant,
        generation: meta,
    };
    let yaml = serde_norway::to_string(&head).unwrap_or_default();
    format!("---\n{yaml}---\n{}\n", body.trim())
}

/// The generation record of an output file, when it has one.
pub fn meta_of(text: &str) -> Option<GenerationMeta> {
    #[derive(Deserialize)]
    struct Root {
        generation: Option<GenerationMeta>,
    }
    let yaml = front_matter::yaml(text)?;
    front_matter::yaml_bounds(yaml).ok()?;
    serde_norway::from_str::<Root>(yaml).ok()?.generation
}

/// The top-level string (or number) keys of a front matter.
pub fn top_level(text: &str) -> BTreeMap<String, String> {
    let Some(yaml) = front_matter::yaml(text) else {
        return BTreeMap::new();
    };
    if front_matter::yaml_bounds(yaml).is_err() {
        return BTreeMap::new();
    }
    let Ok(serde_norway::Value::Mapping(map)) = serde_norway::from_str(yaml) else {
        return BTreeMap::new();
    };
    map.into_iter()
        .filter_map(|(k, v)| {
            let k = k.as_str()?.to_string();
            match v {
                serde_norway::Value::String(s) => Some((k, s)),
                serde_norway::Value::Number(n) => Some((k, n.to_string())),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_matter_names_the_generation_and_reads_back() {
        let scenario = Scenario::new(
            "dentist",
            "s.md".into(),
            "---\ncurrent_time: \"2026-06-02T08:30:00+02:00\"\ntimezone: Europe/Berlin\nprompt: plan my day\n---\nnotes here\n".into(),
        );
        assert_eq!(scenario.notes(), "notes here\n");
        assert_eq!(scenario.prompt.as_deref(), Some("plan my day"));
        let meta = GenerationMeta {
            scenario: "dentist".into(),
            variant: "v4_repair".into(),
            strategy: Strategy::Repair,
            provider: "anthropic".into(),
            model: "m".into(),
            request_id: "abc".into(),
            outcome: Outcome::Repaired,
            repair: Some(RepairStatus::Repaired),
            input_tokens: Some(20),
            output_tokens: None,
        };
        let text = compose(&scenario, &meta, "\n- Task (30 min)\n\n");
        assert!(text.ends_with("---\n- Task (30 min)\n"), "{text}");
        assert_eq!(meta_of(&text), Some(meta.clone()));
        assert!(meta.repair_attempted());
        let top = top_level(&text);
        assert_eq!(top["timezone"], "Europe/Berlin");
        assert_eq!(top["variant"], "v4_repair");
        assert_eq!(front_matter::body(&text), "- Task (30 min)\n");
        assert_eq!(meta_of("no front matter"), None);
    }
}
