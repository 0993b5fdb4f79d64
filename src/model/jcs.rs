//! RFC 8785 (JCS) canonical JSON, written from a `serde_json::Value`. The `serde_jcs` crate
//! (kept as the reference the tests compare with) formats through a boxed writer per JSON
//! fragment and re-buffers every nested object; hashing reports with it was a sixth of a
//! whole-corpus run. Here each object's keys are sorted once and everything is written
//! straight into one buffer. Checked against the RFC's test vectors and against `serde_jcs`.

use serde::Serialize;
use serde_json::Value;

/// The canonical JSON of `value`. A value that is not JSON (a map with non-string keys)
/// cannot be hashed; our types never are.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let value = serde_json::to_value(value).expect("our types serialize to JSON");
    let mut out = Vec::with_capacity(1024);
    write(&value, &mut out);
    out
}

/// Append the canonical form of `value` to `out`.
pub fn write(value: &Value, out: &mut Vec<u8>) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // Every JSON number is an IEEE 754 double, printed as ECMAScript prints it
        // (integers too, as serde_jcs does).
        Value::Number(n) => match n.as_f64().filter(|f| f.is_finite()) {
            Some(f) => out.extend_from_slice(ryu_js::Buffer::new().format_finite(f).as_bytes()),
            None => out.extend_from_slice(b"null"),
        },
        // JCS escapes strings as JSON.stringify does: `"`, `\`, and U+0000–U+001F (short
        // forms where they exist, else `\u00xx` in lower case), which is serde_json's escaping.
        Value::String(s) => string(s, out),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write(item, out);
            }
            out.push(b']');
        }
        Value::Object(map) => {
            // Keys in UTF-16 code-unit order (RFC 8785 §3.2.3), not UTF-8 byte order.
            let mut entries: Vec<(&String, &Value)> = map.iter().collect();
            entries.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push(b'{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                string(key, out);
                out.push(b':');
                write(item, out);
            }
            out.push(b'}');
        }
    }
}

fn string(s: &str, out: &mut Vec<u8>) {
    serde_json::to_writer(&mut *out, s).expect("writing to a Vec cannot fail");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical(v: &Value) -> String {
        String::from_utf8(to_vec(v)).unwrap()
    }

    #[test]
    fn equals_serde_jcs_on_awkward_values() {
        let values = [
            serde_json::json!({"b": 1, "a": [1.5, -0.0, 1e21, 1e-7, 123456789012345680000.0, 9007199254740993u64, -3]}),
            serde_json::json!({"\u{10000}": 1, "\u{e000}": 2, "\u{ffff}": 3, "a": 4, "": 5, "é": 6}),
            serde_json::json!({"s": "\u{0}\u{1f}\u{7f}\"\\/\u{2028}😀\n\t\r\u{8}\u{c}", "n": null, "t": true}),
            serde_json::json!([[], {}, [{}], {"x": {"y": {"z": []}}}]),
            serde_json::json!(0.1f64 + 0.2f64),
        ];
        for v in values {
            assert_eq!(canonical(&v), serde_jcs::to_string(&v).unwrap(), "{v}");
        }
    }
}
