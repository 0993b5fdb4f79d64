//! Anthropic Messages API wire format.
use reqwest::StatusCode;
use serde_json::{Value, json};

use super::types::{CheckPrompt, EvalError, HttpReply, ModelReply, Usage};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
pub const API_VERSION: &str = "2023-06-01";

pub fn endpoint(base_url: &str) -> String {
    format!("{base_url}/v1/messages")
}

/// Forces JSON through a single tool `(name, description)` whose input schema is `schema`.
pub fn body_with(
    model: &str,
    max_tokens: u32,
    prompt: &CheckPrompt,
    schema: &Value,
    (name, description): (&str, &str),
) -> Value {
    json!({
        "model": model,
        "max_tokens": max_tokens,
        "temperature": 0,
        "system": prompt.system,
        "messages": [{"role": "user", "content": prompt.user}],
        "tools": [{
            "name": name,
            "description": description,
            "input_schema": schema,
        }],
        "tool_choice": {"type": "tool", "name": name},
    })
}

pub fn request(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    body: &Value,
) -> reqwest::RequestBuilder {
    client
        .post(url)
        .header("x-api-key", key)
        .header("anthropic-version", API_VERSION)
        .header("content-type", "application/json")
        .json(body)
}

/// The model's answer: the tool input, else the text blocks.
pub fn interpret(reply: HttpReply) -> Result<ModelReply, EvalError> {
    if !reply.status.is_success() {
        return Err(classify_error(&reply));
    }
    let Ok(body) = serde_json::from_str::<Value>(&reply.body) else {
        return Ok(ModelReply {
            raw: reply.body,
            truncated: false,
            usage: Usage::default(),
        });
    };
    if body["stop_reason"] == "refusal" {
        return Err(EvalError::Refused("stop_reason `refusal`".into()));
    }
    let blocks = body["content"].as_array().cloned().unwrap_or_default();
    let tool_input = blocks
        .iter()
        .find(|b| b["type"] == "tool_use")
        .map(|b| b["input"].to_string());
    let raw = tool_input.unwrap_or_else(|| {
        blocks
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    });
    Ok(ModelReply {
        raw,
        truncated: body["stop_reason"] == "max_tokens",
        usage: Usage {
            input_tokens: body["usage"]["input_tokens"].as_u64(),
            output_tokens: body["usage"]["output_tokens"].as_u64(),
        },
    })
}

fn classify_error(reply: &HttpReply) -> EvalError {
    let parsed: Value = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
    let kind = parsed["error"]["type"].as_str().unwrap_or("");
    let message = parsed["error"]["message"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let status = reply.status;
    let lower = message.to_ascii_lowercase();
    match status.as_u16() {
        401 | 403 => EvalError::Auth,
        _ if kind == "authentication_error" || kind == "permission_error" => EvalError::Auth,
        429 => EvalError::RateLimited {
            retry_after: reply.retry_after,
        },
        529 => EvalError::Overloaded,
        _ if kind == "overloaded_error" => EvalError::Overloaded,
        400..=499 if lower.contains("credit balance") || lower.contains("billing") => {
            EvalError::QuotaExhausted
        }
        400..=499 if is_policy_message(&lower) => EvalError::Refused(message.clone()),
        400..=499 => EvalError::InvalidRequest(describe(status, kind, &message)),
        code => EvalError::Server(code),
    }
}

/// A 4xx whose message says a content or usage policy blocked the request or the answer.
pub(crate) fn is_policy_message(lower: &str) -> bool {
    [
        "content filtering policy",
        "content policy",
        "usage policy",
        "content_filter",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

fn describe(status: StatusCode, kind: &str, message: &str) -> String {
    match (kind.is_empty(), message.is_empty()) {
        (_, false) => message.to_string(),
        (false, true) => kind.to_string(),
        (true, true) => format!("HTTP {status}"),
    }
}
