//! The evaluator response cache: raw answers by cache key. A row whose MAC does not
//! verify (a forged or committed cache) is a miss, never an answer.

use serde_json::json;

use super::db::vals;
use super::error::StoreError;
use super::{Store, mac};
use crate::evaluator::ResponseCache;
use crate::model::now_rfc3339;

impl Store {
    pub fn cached_response(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row = self.read("reading response cache", |tx| {
            tx.query_opt(
                "SELECT provider, model, raw_text, mac FROM responses WHERE cache_key = ?1",
                vals![key],
            )
            .map_err(|e| self.err("reading response cache", e))
        })?;
        let Some(row) = row else {
            return Ok(None);
        };
        let read = |r: &super::db::Row| -> Result<_, String> {
            Ok((r.text(0)?, r.text(1)?, r.text(2)?, r.opt_text(3)?))
        };
        let (provider, model, raw, stored_mac) =
            read(&row).map_err(|e| self.err("reading response cache", e))?;
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

    /// The same, remembering which document asked (for `byop store prune`). Concurrent
    /// writers of one key leave one whole row (an upsert, atomic on both backends).
    pub fn put_cached_response_for(
        &self,
        key: &str,
        provider: &str,
        model: &str,
        raw: &str,
        doc_key: Option<&str>,
    ) -> Result<(), StoreError> {
        let row_mac = mac::mac(self.key(), "response", &json!([key, provider, model, raw]));
        self.write("caching response", true, |tx| {
            tx.execute(
                "INSERT INTO responses (cache_key, provider, model, raw_text, created_at, mac, doc_key)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (cache_key) DO UPDATE SET provider = excluded.provider,
                   model = excluded.model, raw_text = excluded.raw_text,
                   created_at = excluded.created_at, mac = excluded.mac, doc_key = excluded.doc_key",
                vals![key, provider, model, raw, now_rfc3339(), row_mac, doc_key],
            )
            .map_err(|e| self.err("caching response", e))
        })
        .map(|_| ())
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
