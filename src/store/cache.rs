//! The evaluator response cache: raw answers by cache key. A row whose MAC does not
//! verify (a forged or committed cache) is a miss, never an answer.

use rusqlite::{OptionalExtension, TransactionBehavior, params};

use serde_json::json;

use super::error::StoreError;
use super::{Store, mac};
use crate::evaluator::ResponseCache;
use crate::model::now_rfc3339;

impl Store {
    pub fn cached_response(&self, key: &str) -> Result<Option<String>, StoreError> {
        let conn = self.conn();
        let row: Option<(String, String, String, Option<String>)> = conn
            .query_row(
                "SELECT provider, model, raw_text, mac FROM responses WHERE cache_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(|e| self.err("reading response cache", e))?;
        let Some((provider, model, raw, stored_mac)) = row else {
            return Ok(None);
        };
        let values = json!([key, provider, model, raw]);
        if !mac::verify(self.key(), "response", &values, stored_mac.as_deref()) {
            self.reject(&format!("cached response {}", &key[..key.len().min(12)]));
            return Ok(None);
        }
        Ok(Some(raw))
    }
    /// Store (or replace) the raw evaluator text for a cache key.
    pub fn put_cached_response(
        &self,
        key: &str,
        provider: &str,
        model: &str,
        raw: &str,
    ) -> Result<(), StoreError> {
        self.put_cached_response_for(key, provider, model, raw, None)
    }

    /// The same, remembering which document asked (for `byop store prune`).
    pub fn put_cached_response_for(
        &self,
        key: &str,
        provider: &str,
        model: &str,
        raw: &str,
        doc_key: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| self.err("starting transaction", e))?;
        let row_mac = mac::mac(self.key(), "response", &json!([key, provider, model, raw]));
        tx.execute(
            "INSERT OR REPLACE INTO responses (cache_key, provider, model, raw_text, created_at, mac, doc_key)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![key, provider, model, raw, now_rfc3339(), row_mac, doc_key],
        )
        .map_err(|e| self.err("caching response", e))?;
        tx.commit().map_err(|e| self.err("caching response", e))
    }
}

/// The store's cache as one document's evaluation sees it: entries remember the document.
pub struct DocCache {
    pub store: std::sync::Arc<Store>,
    pub doc_key: String,
}

impl ResponseCache for DocCache {
    fn get(&self, key: &str) -> Option<String> {
        self.store.get(key)
    }

    fn put(&self, key: &str, provider: &str, model: &str, raw: &str) {
        let put =
            self.store
                .put_cached_response_for(key, provider, model, raw, Some(&self.doc_key));
        if let Err(e) = put {
            tracing::warn!("could not cache evaluator response: {e}");
        }
    }
}

impl ResponseCache for Store {
    fn get(&self, key: &str) -> Option<String> {
        self.cached_response(key)
            .inspect_err(|e| tracing::warn!("response cache: {e}"))
            .ok()
            .flatten()
    }

    fn put(&self, key: &str, provider: &str, model: &str, raw: &str) {
        if let Err(e) = self.put_cached_response(key, provider, model, raw) {
            tracing::warn!("could not cache evaluator response: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_cache_put_get_and_replace() {
        let store = Store::open_in_memory().unwrap();
        assert_eq!(store.cached_response("k1").unwrap(), None);
        store
            .put_cached_response("k1", "anthropic", "claude", "{\"result\":\"pass\"}")
            .unwrap();
        assert_eq!(
            store.cached_response("k1").unwrap().as_deref(),
            Some("{\"result\":\"pass\"}")
        );
        store
            .put_cached_response("k1", "anthropic", "claude", "second")
            .unwrap();
        assert_eq!(
            store.cached_response("k1").unwrap().as_deref(),
            Some("second")
        );
        assert_eq!(store.cached_response("k2").unwrap(), None);
    }
}
