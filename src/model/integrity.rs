//! Integrity hashes: RFC 8785 (JCS) canonical JSON, then sha256.

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::playbook::Playbook;

/// Metadata keys that change without changing what the playbook tests.
const VOLATILE_METADATA: &[&str] = &["created_at", "updated_at"];

/// RFC 8785 canonical JSON of any serializable value.
pub fn canonical_json<T: Serialize + ?Sized>(value: &T) -> String {
    String::from_utf8(super::jcs::to_vec(value)).expect("JSON text is UTF-8")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// `sha256:` + hex sha256 of the JCS form of `value`.
pub fn jcs_sha256<T: Serialize + ?Sized>(value: &T) -> String {
    format!("sha256:{}", sha256_hex(&super::jcs::to_vec(value)))
}

/// Hash of everything in the playbook that determines what it tests.
pub fn playbook_logic_hash(pb: &Playbook) -> String {
    let mut value = serde_json::to_value(pb).expect("playbook serializes");
    if let Some(meta) = value.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        for key in VOLATILE_METADATA {
            meta.remove(*key);
        }
    }
    jcs_sha256(&value)
}

/// Hash of the normalized inputs; missing companions are `""`. The JCS form of
/// `{"ai_output":…,"prompt":…,"source_document":…}` (keys already in JCS order; a JCS string
/// is escaped exactly as serde_json escapes it), streamed into the hash: these texts are the
/// largest thing hashed, once per run and per publish, so no canonical copy is built.
pub fn inputs_fingerprint(ai_output: &str, source_document: &str, prompt: &str) -> String {
    inputs_fingerprint_of_json(
        &json_string(ai_output),
        &json_string(source_document),
        &json_string(prompt),
    )
}

/// A text as a JSON (and JCS) string literal, quotes included.
pub fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string serializes")
}

/// [`inputs_fingerprint`] of texts already written as JSON strings ([`json_string`]): a
/// companion many documents share is escaped once.
pub fn inputs_fingerprint_of_json(ai_output: &str, source_document: &str, prompt: &str) -> String {
    let mut h = Sha256::new();
    for (key, value) in [
        ("{\"ai_output\":", ai_output),
        (",\"prompt\":", prompt),
        (",\"source_document\":", source_document),
    ] {
        h.update(key.as_bytes());
        h.update(value.as_bytes());
    }
    h.update(b"}");
    format!("sha256:{}", hex::encode(h.finalize()))
}

/// The report without what differs between two runs of the same inputs with the same
/// results: when it was made, its id, its request id, whether runs came from the response
/// cache, and the notes of results with no runs of their own (the report-level drift and
/// variance checks, whose notes name the report they were compared with: a rerun compares
/// with the previous run). Two reports repeat each other when these are equal.
pub fn results_only(report: &super::report::Report) -> super::report::Report {
    let mut copy = report.clone();
    copy.report_id = String::new();
    copy.timestamp = String::new();
    copy.request_id = None;
    for r in &mut copy.check_results {
        if r.raw_runs.is_empty() {
            r.notes = String::new();
        }
        for run in &mut r.raw_runs {
            run.cached = false;
        }
    }
    copy
}

/// A report's content id: sha256 of its canonical JSON (id field empty), first 16 hex digits.
pub fn report_id(report: &super::report::Report) -> String {
    let mut copy = report.clone();
    copy.report_id = String::new();
    let hash = jcs_sha256(&copy);
    hash.trim_start_matches("sha256:")[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_fingerprint_equals_the_jcs_library_on_hard_strings() {
        let hard = [
            "",
            "plain",
            "quote \" backslash \\ slash / tab \t nl \n cr \r ff \u{c} bs \u{8}",
            "\u{0} \u{1f} \u{7f} \u{2028} \u{2029} é 😀 \u{feff}",
            "</script> <!-- x --> & \\u0041",
        ];
        for a in hard {
            for b in hard {
                let reference = jcs_sha256(&serde_json::json!({
                    "ai_output": a, "source_document": b, "prompt": a,
                }));
                assert_eq!(inputs_fingerprint(a, b, a), reference, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn fingerprint_matches_a_hand_computed_hash() {
        // JCS: keys sorted, no whitespace, non-ASCII kept as UTF-8.
        let canonical = r#"{"ai_output":"Résumé \"ok\"\n","prompt":"","source_document":"src"}"#;
        assert_eq!(
            canonical_json(
                &serde_json::json!({"source_document":"src","prompt":"","ai_output":"Résumé \"ok\"\n"})
            ),
            canonical
        );
        // Independently computed: printf '%s' '<canonical>' | sha256sum
        assert_eq!(
            inputs_fingerprint("Résumé \"ok\"\n", "src", ""),
            "sha256:2c64eda7d06c2e9128d68762d2255049166c90e892f8d372b62ff41ad3feac4b"
        );
        assert_eq!(
            inputs_fingerprint("", "", ""),
            "sha256:cfad91bb89645708f545a6e16f45416732c8d35292d619733c2555a7f23dcfc7"
        );
    }
}
