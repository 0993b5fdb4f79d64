//! Generation: the evaluator's provider writes an output (a plan, a contract review) from a
//! variant's prompt, with the variant's model, temperature and token limit, through the same
//! permits, pause, retries and observer as every other call. Answers are cached by the exact
//! request, so running an experiment again costs no call.

use serde_json::{Value, json};

use super::cache::ResponseCache;
use super::client::{Call, Evaluator, Shape};
use super::types::{
    CallObserver, CallRecord, CheckPrompt, EvalError, GenParams, ModelReply, Usage,
};
use crate::model::integrity::{canonical_json, sha256_hex};
use crate::model::now_rfc3339;
use std::sync::Mutex;

/// The call id of a generation in the audit log, traces and the fake server's scripts.
pub const GENERATE_CALL_ID: &str = "generate";
/// Name of the forced Anthropic tool and of the OpenAI `json_schema`.
pub const GENERATE_TOOL: &str = "record_output";

/// A generated output and what it cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub text: String,
    /// The provider's token counts when it reported them (also for an answer served from
    /// the cache: what the answer cost when it was made).
    pub usage: Usage,
}

/// One generation: the output or why none came, the request's id (the hash of everything
/// that determines the answer, also its cache key), and whether the cache served it.
#[derive(Debug, Clone)]
pub struct Generation {
    pub result: Result<Generated, EvalError>,
    pub request_id: String,
    pub cached: bool,
}

pub fn generate_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "output": {
                "type": "string",
                "description": "the whole output the prompt asks for, without any fence around it"
            }
        },
        "required": ["output"],
        "additionalProperties": false
    })
}

/// The output of a reply: not cut off, JSON with a non-empty `output`.
fn judge(reply: &ModelReply) -> Result<Generated, EvalError> {
    if reply.truncated {
        return Err(EvalError::Truncated);
    }
    let text = output_of(&reply.raw).ok_or(EvalError::Malformed)?;
    Ok(Generated {
        text,
        usage: reply.usage,
    })
}

fn output_of(raw: &str) -> Option<String> {
    let text = raw.trim();
    let text = text
        .strip_prefix("```json")
        .or_else(|| text.strip_prefix("```"))
        .and_then(|t| t.strip_suffix("```"))
        .unwrap_or(text);
    let value: Value = serde_json::from_str(text.trim()).ok()?;
    let out = value.get("output")?.as_str()?;
    (!out.trim().is_empty()).then(|| out.to_string())
}

/// What the cache keeps of a generation: the output and the tokens it cost.
fn cached_form(g: &Generated) -> String {
    json!({
        "output": g.text,
        "input_tokens": g.usage.input_tokens,
        "output_tokens": g.usage.output_tokens,
    })
    .to_string()
}

fn from_cached(raw: &str) -> Option<Generated> {
    let v: Value = serde_json::from_str(raw).ok()?;
    Some(Generated {
        text: output_of(raw)?,
        usage: Usage {
            input_tokens: v["input_tokens"].as_u64(),
            output_tokens: v["output_tokens"].as_u64(),
        },
    })
}

impl Evaluator {
    /// sha256 of everything that determines a generation's (or a variant's repair's) answer.
    pub fn request_key(&self, kind: &str, prompt: &CheckPrompt, params: &GenParams) -> String {
        let identity = json!({
            "kind": kind,
            "provider": self.info().provider,
            "base_url": self.base_url(),
            "model": params.model,
            "temperature": params.temperature,
            "max_tokens": params.max_tokens,
            "system": prompt.system,
            "user": prompt.user,
        });
        sha256_hex(canonical_json(&identity).as_bytes())
    }

    /// One generation: from the cache unless `fresh`, else a call whose answer is cached.
    pub async fn generate(
        &self,
        call: Call<'_>,
        params: &GenParams,
        cache: Option<&dyn ResponseCache>,
        fresh: bool,
    ) -> Generation {
        let key = self.request_key(GENERATE_CALL_ID, call.prompt, params);
        if !fresh
            && let Some(g) = cache
                .and_then(|c| c.get(&key))
                .and_then(|r| from_cached(&r))
        {
            self.record_hit(&call, params, g.usage);
            return Generation {
                result: Ok(g),
                request_id: key,
                cached: true,
            };
        }
        let format = std::sync::Mutex::new(self.response_format());
        let shape = Shape {
            schema: generate_schema(),
            names: (GENERATE_TOOL, GENERATE_TOOL),
            description: "Record the output.",
            judge: |reply, _, _| judge(reply),
            params: Some(params.clone()),
        };
        let call = Call {
            canary: false,
            ..call
        };
        let (result, _raw) = self.drive(&call, &shape, &format).await;
        if let (Ok(g), Some(cache)) = (&result, cache) {
            cache.put(&key, &self.info().provider, &params.model, &cached_form(g));
        }
        Generation {
            result,
            request_id: key,
            cached: false,
        }
    }

    /// The repair call of a generation variant (its model and parameters), cached by the
    /// exact request like a generation.
    pub async fn repair_generated(
        &self,
        call: Call<'_>,
        params: &GenParams,
        cache: Option<&dyn ResponseCache>,
    ) -> Result<String, EvalError> {
        let key = self.request_key(super::repair::REPAIR_CALL_ID, call.prompt, params);
        if let Some(g) = cache
            .and_then(|c| c.get(&key))
            .and_then(|r| from_cached(&r))
        {
            self.record_hit(&call, params, g.usage);
            return Ok(g.text);
        }
        let tap = Tap {
            inner: call.observer,
            usage: Mutex::default(),
        };
        let call = Call {
            observer: Some(&tap),
            ..call
        };
        let (result, _raw) = self.repair_call_with(call, Some(params.clone())).await;
        if let (Ok(text), Some(cache)) = (&result, cache) {
            let usage = *tap.usage.lock().unwrap_or_else(|e| e.into_inner());
            let form = cached_form(&Generated {
                text: text.clone(),
                usage,
            });
            cache.put(&key, &self.info().provider, &params.model, &form);
        }
        result
    }

    /// An answer served from the cache is an attempt too (attempt 0), carrying the tokens
    /// it cost when it was made.
    fn record_hit(&self, call: &Call<'_>, params: &GenParams, usage: Usage) {
        let Some(o) = call.observer else { return };
        o.record(CallRecord {
            provider: self.info().provider,
            model: params.model.clone(),
            check_id: call.prompt.check_id.clone(),
            run: call.run,
            attempt: 0,
            started_at: now_rfc3339(),
            latency_ms: 0,
            status: None,
            outcome: crate::model::CallOutcome::Ok,
            cached: true,
            request_sha256: None,
            response_sha256: None,
            usage,
        });
    }
}

/// Passes every attempt on and adds up the tokens of the answered ones.
struct Tap<'a> {
    inner: Option<&'a dyn CallObserver>,
    usage: Mutex<Usage>,
}

impl CallObserver for Tap<'_> {
    fn record(&self, record: CallRecord) {
        if record.outcome.is_ok() {
            let mut u = self.usage.lock().unwrap_or_else(|e| e.into_inner());
            let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
                (None, None) => None,
                (a, b) => Some(a.unwrap_or(0) + b.unwrap_or(0)),
            };
            u.input_tokens = add(u.input_tokens, record.usage.input_tokens);
            u.output_tokens = add(u.output_tokens, record.usage.output_tokens);
        }
        if let Some(o) = self.inner {
            o.record(record);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(raw: &str, truncated: bool) -> ModelReply {
        ModelReply {
            raw: raw.into(),
            truncated,
            usage: Usage {
                input_tokens: Some(7),
                output_tokens: Some(3),
            },
        }
    }

    #[test]
    fn an_output_is_taken_and_anything_else_is_malformed() {
        let g = judge(&reply(r#"{"output": "- Plan (30 min)"}"#, false)).unwrap();
        assert_eq!(g.text, "- Plan (30 min)");
        assert_eq!(g.usage.output_tokens, Some(3));
        assert_eq!(
            judge(&reply(r#"{"output": " "}"#, false)),
            Err(EvalError::Malformed)
        );
        assert_eq!(
            judge(&reply("Sure, here", false)),
            Err(EvalError::Malformed)
        );
        assert_eq!(
            judge(&reply(r#"{"output": "x"}"#, true)),
            Err(EvalError::Truncated)
        );
    }

    #[test]
    fn the_cached_form_keeps_the_output_and_its_tokens() {
        let g = judge(&reply(r#"{"output": "text"}"#, false)).unwrap();
        assert_eq!(from_cached(&cached_form(&g)), Some(g));
        assert_eq!(from_cached("{}"), None);
    }

    #[test]
    fn parameters_replace_the_evaluators_in_the_body() {
        let mut body = json!({"model": "m", "temperature": 0, "max_tokens": 10});
        GenParams {
            model: "planner".into(),
            temperature: 0.7,
            max_tokens: 900,
        }
        .apply(&mut body);
        assert_eq!(
            body,
            json!({"model": "planner", "temperature": 0.7, "max_tokens": 900})
        );
    }
}
