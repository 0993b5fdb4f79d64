//! The verdict JSON schema sent to providers that support structured output.
use serde_json::{Value, json};

use crate::model::Verdict;

/// Name of the forced Anthropic tool and of the OpenAI `json_schema`.
pub const TOOL_NAME: &str = "record_verdict";
pub const OPENAI_SCHEMA_NAME: &str = "byop_verdict";

/// Strict-mode compatible: every property required, no additional properties. `result`
/// is limited to the check's result states (all three when none are given).
pub fn verdict_schema(states: &[Verdict]) -> Value {
    let all = [Verdict::Pass, Verdict::Fail, Verdict::Indeterminate];
    let allowed: Vec<&str> = all
        .iter()
        .filter(|v| states.is_empty() || states.contains(v))
        .map(|v| v.as_str())
        .collect();
    json!({
        "type": "object",
        "properties": {
            "result": {"type": "string", "enum": allowed},
            "confidence": {
                "type": "number",
                "description": "0 to 1: how clearly the evidence supports the judgment"
            },
            "evidence_citations": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "span": {"type": "string", "description": "exact quote from the AI output"},
                        "context": {"type": "string"}
                    },
                    "required": ["span", "context"],
                    "additionalProperties": false
                }
            },
            "notes": {"type": "string"},
            "assumptions": {"type": "array", "items": {"type": "string"}}
        },
        "required": ["result", "confidence", "evidence_citations", "notes", "assumptions"],
        "additionalProperties": false
    })
}
