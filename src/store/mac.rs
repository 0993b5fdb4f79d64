//! Message authentication of stored rows: HMAC-SHA256 under the per-user key over the
//! canonical JSON of the row's values. A row whose MAC does not verify was not written by
//! this user's byop (a committed or edited database) and is never used as a result.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::model::integrity::canonical_json;

pub(super) fn mac(key: &[u8; 32], kind: &str, values: &serde_json::Value) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(kind.as_bytes());
    m.update(&[0]);
    m.update(canonical_json(values).as_bytes());
    hex::encode(m.finalize().into_bytes())
}

/// Constant-time comparison with the stored MAC (absent: not verified).
pub(super) fn verify(
    key: &[u8; 32],
    kind: &str,
    values: &serde_json::Value,
    stored: Option<&str>,
) -> bool {
    let Some(stored) = stored.and_then(|s| hex::decode(s).ok()) else {
        return false;
    };
    let mut m = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes any key length");
    m.update(kind.as_bytes());
    m.update(&[0]);
    m.update(canonical_json(values).as_bytes());
    m.verify_slice(&stored).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_value_or_another_key_does_not_verify() {
        let (k1, k2) = ([1u8; 32], [2u8; 32]);
        let v = serde_json::json!(["id", "{\"result\":\"fail\"}"]);
        let m = mac(&k1, "response", &v);
        assert!(verify(&k1, "response", &v, Some(&m)));
        assert!(!verify(&k2, "response", &v, Some(&m)));
        assert!(!verify(&k1, "report", &v, Some(&m)));
        let forged = serde_json::json!(["id", "{\"result\":\"pass\"}"]);
        assert!(!verify(&k1, "response", &forged, Some(&m)));
        assert!(!verify(&k1, "response", &v, None));
        assert!(!verify(&k1, "response", &v, Some("zz")));
    }
}
