//! OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp, vLLM).
use serde_json::{Value, json};

use super::types::{CheckPrompt, EvalError, HttpReply, ModelReply, Usage};

/// `OPENAI_BASE_URL` conventionally includes `/v1`.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub fn endpoint(base_url: &str) -> String {
    format!("{base_url}/chat/completions")
}

/// Only the hosted OpenAI API needs a key; local servers accept none.
pub fn requires_key(base_url: &str) -> bool {
    base_url.contains("api.openai.com")
}

/// How the answer's shape is asked for. Servers that reject one (older vLLM and llama.cpp
/// builds, some gateways) get the next: `json_schema` → `json_object` → a plain prompt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseFormat {
    JsonSchema,
    JsonObject,
    Plain,
}

impl ResponseFormat {
    pub const ALL: [ResponseFormat; 3] = [
        ResponseFormat::JsonSchema,
        ResponseFormat::JsonObject,
        ResponseFormat::Plain,
    ];

    /// Said in `raw_runs[].notes` when the answer was not asked for with a JSON schema.
    pub fn note(self) -> Option<&'static str> {
        match self {
            ResponseFormat::JsonSchema => None,
            ResponseFormat::JsonObject => Some(
                "[The server rejected response_format json_schema; asked with json_object and the schema in words.]",
            ),
            ResponseFormat::Plain => Some(
                "[The server rejected response_format json_schema and json_object; asked with the schema in words only.]",
            ),
        }
    }
}

/// A 400/422 that names the response format: the server does not support it.
pub fn rejects_format(error: &EvalError) -> bool {
    let EvalError::InvalidRequest(message) = error else {
        return false;
    };
    let m = message.to_ascii_lowercase();
    [
        "response_format",
        "json_schema",
        "json_object",
        "schema",
        "structured output",
        "grammar",
    ]
    .iter()
    .any(|w| m.contains(w))
}

/// A request whose answer is asked for in the shape of `schema`, named `name`.
pub fn body_with(
    model: &str,
    max_tokens: u32,
    prompt: &CheckPrompt,
    format: ResponseFormat,
    (schema, name): (&Value, &str),
) -> Value {
    let system = match format {
        ResponseFormat::JsonSchema => prompt.system.clone(),
        _ => format!(
            "{}\n\nRespond with only a JSON object (no prose, no code fence) that matches this JSON Schema:\n{}",
            prompt.system, schema
        ),
    };
    let mut body = json!({
        "model": model,
        "temperature": 0,
        "max_tokens": max_tokens,
        "messages": [
            {"role": "system", "content": system},
            {"role": "user", "content": prompt.user},
        ],
    });
    match format {
        ResponseFormat::JsonSchema => {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": name, "strict": true, "schema": schema},
            });
        }
        ResponseFormat::JsonObject => body["response_format"] = json!({"type": "json_object"}),
        ResponseFormat::Plain => {}
    }
    body
}

pub fn request(
    client: &reqwest::Client,
    url: &str,
    key: &str,
    body: &Value,
) -> reqwest::RequestBuilder {
    let builder = client.post(url).json(body);
    if key.trim().is_empty() {
        builder
    } else {
        builder.bearer_auth(key)
    }
}

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
    let choice = &body["choices"][0];
    let message = &choice["message"];
    if let Some(refusal) = message["refusal"].as_str().filter(|r| !r.trim().is_empty()) {
        return Err(EvalError::Refused(format!(
            "refusal: {}",
            clip(refusal, 200)
        )));
    }
    if choice["finish_reason"] == "content_filter" {
        return Err(EvalError::Refused("finish_reason `content_filter`".into()));
    }
    let raw = message["content"].as_str().unwrap_or("").to_string();
    Ok(ModelReply {
        raw,
        truncated: choice["finish_reason"] == "length",
        usage: Usage {
            input_tokens: body["usage"]["prompt_tokens"].as_u64(),
            output_tokens: body["usage"]["completion_tokens"].as_u64(),
        },
    })
}

/// At most `max` characters of `s`.
fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn classify_error(reply: &HttpReply) -> EvalError {
    let parsed: Value = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
    let error = &parsed["error"];
    let code = error["code"].as_str().unwrap_or("");
    let kind = error["type"].as_str().unwrap_or("");
    let message = error["message"]
        .as_str()
        .or_else(|| parsed["error"].as_str())
        .unwrap_or("")
        .to_string();
    match reply.status.as_u16() {
        _ if code == "insufficient_quota" || kind == "insufficient_quota" => {
            EvalError::QuotaExhausted
        }
        400..=499
            if ["content_filter", "content_policy_violation"].contains(&code)
                || super::anthropic::is_policy_message(&message.to_ascii_lowercase()) =>
        {
            EvalError::Refused(if message.is_empty() {
                code.to_string()
            } else {
                message
            })
        }
        401 | 403 => EvalError::Auth,
        429 => EvalError::RateLimited {
            retry_after: reply.retry_after,
        },
        400..=499 => EvalError::InvalidRequest(if message.is_empty() {
            format!("HTTP {}", reply.status)
        } else {
            message
        }),
        status => EvalError::Server(status),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bad_request_about_the_response_format_is_a_rejection() {
        let bad = |m: &str| EvalError::InvalidRequest(m.into());
        assert!(rejects_format(&bad(
            "Unrecognized response_format type: json_schema"
        )));
        assert!(rejects_format(&bad("json_object is not supported")));
        assert!(!rejects_format(&bad("max_tokens is too large")));
        assert!(!rejects_format(&EvalError::Server(500)));
    }
}
