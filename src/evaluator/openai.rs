//! OpenAI-compatible chat completions (OpenAI, Ollama, llama.cpp, vLLM).
use serde_json::{Value, json};

use super::schema::{OPENAI_SCHEMA_NAME, verdict_schema};
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

pub fn body(model: &str, max_tokens: u32, prompt: &CheckPrompt) -> Value {
    json!({
        "model": model,
        "temperature": 0,
        "max_tokens": max_tokens,
        "messages": [
            {"role": "system", "content": prompt.system},
            {"role": "user", "content": prompt.user},
        ],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": OPENAI_SCHEMA_NAME, "strict": true, "schema": verdict_schema(&prompt.result_states)},
        },
    })
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
    let raw = message["content"]
        .as_str()
        .or_else(|| message["refusal"].as_str())
        .unwrap_or("")
        .to_string();
    Ok(ModelReply {
        raw,
        truncated: choice["finish_reason"] == "length",
        usage: Usage {
            input_tokens: body["usage"]["prompt_tokens"].as_u64(),
            output_tokens: body["usage"]["completion_tokens"].as_u64(),
        },
    })
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
