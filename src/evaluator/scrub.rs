//! Keys out of evaluator text. A gateway or a confused model may echo the key it was
//! sent (or another credential) back in its answer; the answer's text becomes notes,
//! SARIF messages, cached rows and `raw_response`. Every answer is scrubbed of the key
//! and of anything shaped like a provider key before anything reads it.

use std::sync::OnceLock;

use regex::Regex;

use super::scrub_view;

/// What a scrubbed key becomes.
pub const REDACTED: &str = "[redacted]";

/// Shapes of provider credentials: OpenAI / Anthropic (`sk-…`, `sk-ant-…`, `sk-proj-…`, in
/// any case: an echo may be upper-cased),
/// Google (`AIza…`), AWS access key ids (`AKIA…`), GitHub tokens (`ghp_…`, `github_pat_…`),
/// Slack (`xox?-…`), Hugging Face (`hf_…`), xAI (`xai-…`), Groq (`gsk_…`).
fn shapes() -> &'static Regex {
    static SHAPES: OnceLock<Regex> = OnceLock::new();
    SHAPES.get_or_init(|| {
        Regex::new(
            r"(?x)
            (?i:\bsk-[a-z0-9_\-]{16,})
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

/// `text` without `key` (when it is long enough to be one, in any case and however its
/// characters are spaced) and without anything shaped like a provider key. Text that parses as JSON is scrubbed string by string, so a key
/// written with JSON escapes (`\u0073k-…`) is found too.
pub fn scrub(text: &str, key: &str) -> String {
    if let Ok(mut value) = serde_json::from_str::<serde_json::Value>(text)
        && (value.is_object() || value.is_array())
    {
        let mut changed = false;
        scrub_value(&mut value, key, &mut changed);
        if changed {
            // Again over the whole: a key split across strings (an array of its characters).
            return scrub_text(&value.to_string(), key);
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
/// are looked for in a decoded view of the text (JSON `\uXXXX`, `\u{…}`, `\UXXXXXXXX`,
/// `\xXX`, percent `%XX` — also twice, `%252D` — and HTML `&#NN;` / `&#xHH;` escapes with
/// any number of leading zeros read as the characters they stand for), so an echo written
/// with any mix of these escapes is found. The key is compared in any case, and skipping
/// whatever separates its characters (whitespace, invisible characters, punctuation that is
/// not its own: an echo wrapped, letter-spaced or zero-width-separated), and so is any
/// stretch of [`FRAGMENT`] or more of its characters (an echo cut short); the key's base64
/// forms (standard and URL-safe, at all three alignments) and hexadecimal forms are looked
/// for in the text itself. Each view is built once, in one pass: linear in the text.
fn scrub_text(text: &str, key: &str) -> String {
    let key = key.trim();
    let view = scrub_view::decoded(text);
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    if key.len() >= 8 {
        let lower = key.to_lowercase();
        let key_chars: Vec<char> = lower.chars().collect();
        let folded = scrub_view::folded(&view, &key_chars);
        ranges.extend(
            folded
                .text
                .match_indices(lower.as_str())
                .map(|(s, m)| folded.original(s, s + m.len())),
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
            key_fragments(&folded.text, &lower)
                .into_iter()
                .map(|(s, e)| folded.original(s, e)),
        );
    }
    ranges.extend(
        shapes()
            .find_iter(&view.text)
            .map(|m| view.original(m.start(), m.end())),
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

/// The runs of `folded` (the text in lower case without separators) made of [`FRAGMENT`] or
/// more consecutive characters of the key (`lower`, in lower case): what is left of an echo
/// written in a form no other pass decodes, or cut short, still holds long stretches of the
/// key's own characters. One hash lookup of a fixed-length window per byte: linear.
fn key_fragments(folded: &str, lower: &str) -> Vec<(usize, usize)> {
    if lower.len() < FRAGMENT + 8 || !lower.is_ascii() {
        return Vec::new();
    }
    let windows: std::collections::HashSet<&[u8]> = lower.as_bytes().windows(FRAGMENT).collect();
    let b = folded.as_bytes();
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

    /// The key as echoes transform it: the same characters in another case, wrapped,
    /// letter-spaced, separated by invisible characters or written as escapes padded with
    /// zeros; each is redacted whole, and the text around it is kept.
    #[test]
    fn a_key_echoed_in_another_case_spaced_or_padded_escapes_is_redacted() {
        let key = "sk-ant-api03-Zq9xWv3LmN8bT2yRkP5sD7fGhJ4cV6nM1aQ0eU_iOo-XYZabc123";
        let chars: Vec<char> = key.chars().collect();
        let join = |sep: &str| {
            let parts: Vec<String> = chars.iter().map(char::to_string).collect();
            parts.join(sep)
        };
        let wrapped: Vec<String> = chars
            .chunks(10)
            .map(|c| c.iter().collect::<String>())
            .collect();
        let each = |f: &dyn Fn(char) -> String| chars.iter().map(|&c| f(c)).collect::<String>();
        let echoes = [
            key.to_uppercase(),
            key.to_lowercase(),
            wrapped.join("\n"),
            wrapped.join("\\n"),
            wrapped.join("\r\n  "),
            join(" "),
            join("\u{200B}"),
            join("\u{2060}"),
            join("\u{00AD}"),
            join("\u{3164}"),
            join("&#8203;"),
            join("&ZeroWidthSpace;"),
            join(". "),
            join(" ").to_uppercase(),
            each(&|c| format!("&#{:07};", c as u32)),
            each(&|c| format!("&#x{:08X};", c as u32)),
            each(&|c| format!("\\U{:08x}", c as u32)),
            each(&|c| format!("\\u{{{:06x}}}", c as u32)),
            each(&|c| format!("\\x{:02x}", c as u32)),
            // Fullwidth, upper case.
            key.to_uppercase()
                .chars()
                .map(|c| char::from_u32(c as u32 + 0xFEE0).unwrap())
                .collect(),
        ];
        for echo in echoes {
            let out = scrub(&format!("invalid x-api-key {echo} (check it)"), key);
            assert_eq!(out, "invalid x-api-key [redacted] (check it)", "{echo:?}");
        }
        // Cut short: 20 of its characters, upper-cased and letter-spaced.
        let cut = join(" ")[30..69].to_uppercase();
        let out = scrub(&format!("key {cut} end"), key);
        assert_eq!(out, "key [redacted] end", "{cut:?}");
        // Inside a JSON error body, escaped as a JSON encoder writes it.
        let body =
            serde_json::json!({"error": {"message": format!("bad key {}", join("\u{200B}"))}});
        let out = scrub(&body.to_string(), key);
        assert_eq!(out, r#"{"error":{"message":"bad key [redacted]"}}"#);
        // Ordinary text in any case and spacing is left alone, and so is a stretch of the
        // key's characters shorter than a fragment.
        for plain in [
            "SK-1 and sk-2 are the SKUs; the API is at v3 (Zq9xWv3LmN8b).",
            "A N Y  T E X T letter-spaced, &#0000065; &#x41; \\U00000041 \\n done",
            "&#&#&#&#0000000000000000000000000000000000000000000",
        ] {
            assert_eq!(scrub(plain, key), plain);
        }
    }

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
