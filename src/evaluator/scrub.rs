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
        Value::Object(o) => {
            let entries = std::mem::take(o);
            for (name, mut value) in entries {
                scrub_value(&mut value, key, changed);
                let clean = scrub_text(&name, key);
                *changed |= clean != name;
                o.insert(clean, value);
            }
        }
        _ => {}
    }
}

/// Every string of a parsed verdict scrubbed: what serde decoded is scrubbed again, so no
/// escape the raw-text pass did not know reaches notes, quotes or assumptions.
pub fn scrub_verdict(v: &mut super::types::EvaluatorVerdict, key: &str) {
    v.notes = scrub_text(&v.notes, key);
    for q in &mut v.evidence_citations {
        q.span = scrub_text(&q.span, key);
        q.context = scrub_text(&q.context, key);
    }
    for a in &mut v.assumptions {
        *a = scrub_text(a, key);
    }
}

/// `text` with every range holding the key or a key shape redacted. The key and the shapes
/// are looked for in a decoded view of the text (JSON `\uXXXX`, percent `%XX` — also
/// twice, `%252D` — and HTML `&#NN;` escapes of letters, digits, `-` and `_` read as those
/// characters), so an echo written with any mix of these escapes is found, and so is any
/// stretch of [`FRAGMENT`] or more of the key's characters (an echo cut short); the key's
/// base64 forms (standard and URL-safe, at all three alignments) and hexadecimal forms
/// are looked for in the text itself.
fn scrub_text(text: &str, key: &str) -> String {
    let key = key.trim();
    let (view, spans) = decoded_view(text);
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    let to_original = |s: usize, e: usize| (spans[s].0, spans[e - 1].1);
    if key.len() >= 8 {
        ranges.extend(
            view.match_indices(key)
                .map(|(s, m)| to_original(s, s + m.len())),
        );
        for form in base64_forms(key.as_bytes()) {
            for (s, m) in text.match_indices(form.as_str()) {
                ranges.push(base64_run(text, s, s + m.len()));
            }
        }
        for form in hex_forms(key.as_bytes()) {
            ranges.extend(
                text.match_indices(form.as_str())
                    .map(|(s, m)| (s, s + m.len())),
            );
        }
        ranges.extend(
            key_fragments(&view, key)
                .into_iter()
                .map(|(s, e)| to_original(s, e)),
        );
    }
    ranges.extend(
        shapes()
            .find_iter(&view)
            .map(|m| to_original(m.start(), m.end())),
    );
    if ranges.is_empty() {
        return text.to_string();
    }
    ranges.sort();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in ranges {
        if e <= at {
            continue;
        }
        out.push_str(&text[at..s.max(at)]);
        if s >= at {
            out.push_str(REDACTED);
        }
        at = e;
    }
    out.push_str(&text[at..]);
    out
}

/// The runs of `view` made of [`FRAGMENT`] or more consecutive characters of the key: what
/// is left of an echo written in a form no other pass decodes (escaped twice, `%252D`, or
/// cut short) still holds long stretches of the key's own characters.
fn key_fragments(view: &str, key: &str) -> Vec<(usize, usize)> {
    if key.len() < FRAGMENT + 8 || !key.is_ascii() {
        return Vec::new();
    }
    let windows: std::collections::HashSet<&[u8]> = key.as_bytes().windows(FRAGMENT).collect();
    let b = view.as_bytes();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for i in 0..b.len().saturating_sub(FRAGMENT - 1) {
        if windows.contains(&b[i..i + FRAGMENT]) {
            match runs.last_mut() {
                Some(run) if run.1 >= i => run.1 = i + FRAGMENT,
                _ => runs.push((i, i + FRAGMENT)),
            }
        }
    }
    runs
}

/// How many consecutive characters of the key make a fragment of it.
const FRAGMENT: usize = 16;

/// The key written as hexadecimal bytes, lower and upper case.
fn hex_forms(key: &[u8]) -> [String; 2] {
    let lower: String = key.iter().map(|b| format!("{b:02x}")).collect();
    let upper = lower.to_ascii_uppercase();
    [lower, upper]
}

/// The text with escapes of key characters decoded, and for each byte of it the byte range
/// of the original text it came from.
fn decoded_view(text: &str) -> (String, Vec<(usize, usize)>) {
    let mut view = String::with_capacity(text.len());
    let mut spans = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let (c, len) = match escaped(&text[i..]) {
            Some(decoded) => decoded,
            None => {
                let c = text[i..].chars().next().expect("in bounds");
                (c, c.len_utf8())
            }
        };
        view.push(c);
        spans.extend(std::iter::repeat_n((i, i + len), c.len_utf8()));
        i += len;
    }
    (view, spans)
}

/// A JSON, percent or HTML escape of a letter, digit, `-` or `_` at the start of `rest`,
/// with its length.
fn escaped(rest: &str) -> Option<(char, usize)> {
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    // Percent-encoded twice (`%252D`: a gateway encoding what was already encoded).
    if let Some(c) = (rest.strip_prefix("%25").and_then(|r| r.get(..2)))
        .and_then(hex)
        .and_then(char::from_u32)
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
    {
        return Some((c, 5));
    }
    let (code, len) = if let Some(h) = rest.strip_prefix("\\u").and_then(|r| r.get(..4)) {
        (hex(h)?, 6)
    } else if let Some(h) = rest.strip_prefix('%').and_then(|r| r.get(..2)) {
        (hex(h)?, 3)
    } else if let Some(r) = rest.strip_prefix("&#") {
        let end = r.find(';').filter(|&e| e <= 6)?;
        let body = &r[..end];
        let code = match body.strip_prefix(['x', 'X']) {
            Some(h) => hex(h)?,
            None => body.parse().ok()?,
        };
        (code, end + 3)
    } else {
        return None;
    };
    let c = char::from_u32(code)?;
    (c.is_ascii_alphanumeric() || c == '-' || c == '_').then_some((c, len))
}

/// The parts of the key's base64 encodings that do not depend on the bytes around it: for
/// each of the three alignments, standard and URL-safe alphabets.
fn base64_forms(key: &[u8]) -> Vec<String> {
    let mut forms = Vec::new();
    for pad in 0..3 {
        let mut bytes = vec![0u8; pad];
        bytes.extend_from_slice(key);
        let encoded = base64(&bytes);
        let start = if pad > 0 { 4 } else { 0 };
        let end = (bytes.len() / 3) * 4;
        if end > start + 8 {
            let std = encoded[start..end].to_string();
            forms.push(std.replace('+', "-").replace('/', "_"));
            forms.push(std);
        }
    }
    forms
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        for _ in chunk.len()..3 {
            out.push('=');
        }
    }
    out
}

/// The whole run of base64 characters around a match (the encoded key with what was
/// encoded next to it).
fn base64_run(text: &str, start: usize, end: usize) -> (usize, usize) {
    let b64 = |c: u8| c.is_ascii_alphanumeric() || b"+/=-_".contains(&c);
    let bytes = text.as_bytes();
    let s = bytes[..start]
        .iter()
        .rposition(|&c| !b64(c))
        .map_or(0, |p| p + 1);
    let e = bytes[end..]
        .iter()
        .position(|&c| !b64(c))
        .map_or(text.len(), |p| end + p);
    (s, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_encoded_twice_in_hex_or_cut_short_leaves_none_of_its_stretches() {
        let key = "sk-ant-TESTKEY123456789abcdef";
        let hex: String = key.bytes().map(|b| format!("{b:02x}")).collect();
        for echo in [
            "bad key sk%252Dant%252DTESTKEY123456789abcdef (twice)".to_string(),
            format!("bad key {hex} (hex)"),
            format!("bad key {} (HEX)", hex.to_uppercase()),
            "bad key …TESTKEY123456789abc (cut)".to_string(),
        ] {
            let out = scrub(&echo, key);
            assert!(!out.contains("TESTKEY123456789"), "{echo} -> {out}");
            assert!(!out.contains(&hex[16..48]), "{echo} -> {out}");
            assert!(out.contains(REDACTED), "{out}");
        }
        // Short runs of the key's characters are not fragments of it.
        assert_eq!(scrub("the test key 1234 abc", key), "the test key 1234 abc");
    }

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
        // Escaped inside prose, percent-encoded, HTML-escaped, base64 at every alignment.
        let key = "sk-proj-SECRETKEY1234567890abcdefXYZ";
        for echo in [
            r#"verdict: {"notes": "echo \u0073k-proj-SECRETKEY1234567890abcdefXYZ end"} done"#,
            "invalid key sk%2Dproj%2DSECRETKEY1234567890abcdefXYZ here",
            "invalid key %73%6b-proj-SECRETKEY1234567890abcdefXYZ here",
            "key &#115;&#x6b;-proj-SECRETKEY1234567890abcdefXYZ here",
        ] {
            let out = scrub(echo, key);
            assert!(!out.contains("SECRETKEY"), "{echo} -> {out}");
            assert!(out.contains(REDACTED), "{out}");
        }
        for prefix in ["", "a", "ab", "Bearer: "] {
            for encoded in [base64(format!("{prefix}{key}").as_bytes())] {
                let url_safe = encoded.replace('+', "-").replace('/', "_");
                for form in [encoded, url_safe] {
                    let out = scrub(&format!("auth ({form}) rejected"), key);
                    assert_eq!(out, "auth ([redacted]) rejected", "{prefix:?} {form}");
                }
            }
        }
        assert_eq!(
            base64(b"sk-ant-TESTKEY123456789abcdef"),
            "c2stYW50LVRFU1RLRVkxMjM0NTY3ODlhYmNkZWY="
        );
        // Ordinary text is left alone.
        let plain = r#"{"result":"pass","notes":"the task-based skill set"}"#;
        assert_eq!(scrub(plain, key), plain);
    }
}
