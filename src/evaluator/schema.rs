//! The verdict JSON schema sent to providers that support structured output.
use serde_json::{Value, json};

/// Name of the forced Anthropic tool and of the OpenAI `json_schema`.
pub const TOOL_NAME: &str = "record_verdict";
pub const OPENAI_SCHEMA_NAME: &str = "byop_verdict";

/// Strict-mode compatible: every property required, no additional properties.
pub fn verdict_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "result": {"type": "string", "enum": ["pass", "fail", "indeterminate"]},
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
