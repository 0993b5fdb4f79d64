//! Keys out of evaluator text. A gateway or a confused model may echo the key it was
//! sent (or another credential) back in its answer; the answer's text becomes notes,
//! SARIF messages, cached rows and `raw_response`. Every answer is scrubbed of the key
//! and of anything shaped like a provider key before anything reads it.

use std::sync::OnceLock;

use regex::Regex;

/// What a scrubbed key becomes.
pub const REDACTED: &str = "[redacted]";

/// Shapes of provider credentials: OpenAI / Anthropic (`sk-…`, `sk-ant-…`, `sk-proj-…`),
/// Google (`AIza…`), AWS access key ids (`AKIA…`), GitHub tokens (`ghp_…`, `github_pat_…`),
/// Slack (`xox?-…`), Hugging Face (`hf_…`), xAI (`xai-…`), Groq (`gsk_…`).
fn shapes() -> &'static Regex {
    static SHAPES: OnceLock<Regex> = OnceLock::new();
    SHAPES.get_or_init(|| {
        Regex::new(
            r"(?x)
            \bsk-[A-Za-z0-9_\-]{16,}
            | \bAIza[0-9A-Za-z_\-]{30,}
            | \bAKIA[0-9A-Z]{16}\b
            | \b(?:ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{30,}
            | \bgithub_pat_[A-Za-z0-9_]{30,}
            | \bxox[abposr]-[A-Za-z0-9\-]{10,}
            | \bhf_[A-Za-z0-9]{30,}
            | \bxai-[A-Za-z0-9]{30,}
            | \bgsk_[A-Za-z0-9]{30,}",
        )
        .expect("the key shapes compile")
    })
}

/// `text` without `key` (when it is long enough to be one) and without anything shaped
/// like a provider key. Text that parses as JSON is scrubbed string by string, so a key
/// written with JSON escapes (`\u0073k-…`) is found too.
pub fn scrub(text: &str, key: &str) -> String {
    if let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text)
        && (value.is_object() || value.is_array())
    {
        let mut changed = false;
        scrub_value(&mut value, key, &mut changed);
        if changed {
            return value.to_string();
        }
    }
    scrub_text(text, key)
}

fn scrub_value(v: &mut serde_json::Value, key: &str, changed: &mut bool) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            let clean = scrub_text(s, key);
            if clean != *s {
                *s = clean;
                *changed = true;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|v| scrub_value(v, key, changed)),
        Value::Object(o) => o.values_mut().for_each(|v| scrub_value(v, key, changed)),
        _ => {}
    }
}

fn scrub_text(text: &str, key: &str) -> String {
    let key = key.trim();
    let text = if key.len() >= 8 && text.contains(key) {
        text.replace(key, REDACTED)
    } else {
        text.to_string()
    };
    match shapes().replace_all(&text, REDACTED) {
        std::borrow::Cow::Borrowed(_) => text,
        std::borrow::Cow::Owned(s) => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_and_key_shaped_text_are_scrubbed_wherever_they_are() {
        let key = "gateway-key-0123456789";
        assert_eq!(
            scrub("echo gateway-key-0123456789 back", key),
            "echo [redacted] back"
        );
        for shaped in [
            "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv",
            "sk-proj-abcdefghijklmnopqrstuvwx",
            "AIzaSyA1234567890abcdefghijklmnopqrstu",
            "AKIAIOSFODNN7EXAMPLE",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ] {
            let out = scrub(&format!("your key is {shaped}."), key);
            assert_eq!(out, "your key is [redacted].", "{shaped}");
        }
        // Inside JSON, also when written with escapes.
        let raw = r#"{"result":"fail","notes":"key \u0073k-ant-api03-AbCdEfGhIjKlMnOpQrSt"}"#;
        let v: serde_json::Value = serde_json::from_str(&scrub(raw, key)).unwrap();
        assert_eq!(v["notes"], "key [redacted]");
        assert_eq!(v["result"], "fail");
        // Ordinary text is left alone.
        let plain = r#"{"result":"pass","notes":"the task-based skill set"}"#;
        assert_eq!(scrub(plain, key), plain);
    }
}
