//! Sending a request and reading the answer: no redirects followed (the key would go
//! along), a bounded body, and errors described without headers or key.

use reqwest::Response;

use super::retry;
use super::types::{EvalError, HttpReply};

/// The HTTP side of an evaluator: the client, where it sends, and what it redacts.
pub(super) struct Transport {
    pub client: reqwest::Client,
    /// Base URL without trailing `/`, shown in network errors.
    pub base_url: String,
    /// The key, to scrub from anything reported.
    pub key: String,
    pub max_body: usize,
}

impl Transport {
    pub async fn send(&self, request: reqwest::RequestBuilder) -> Result<HttpReply, EvalError> {
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
        let status = response.status();
        if status.is_redirection() {
            return Err(EvalError::Redirected(redirect_host(&response)));
        }
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(retry::parse_retry_after);
        let body = self.read_body(response).await?;
        Ok(HttpReply {
            status,
            retry_after,
            body,
        })
    }

    /// The body, refusing more than `max_body` bytes (checked as it streams in).
    async fn read_body(&self, mut response: Response) -> Result<String, EvalError> {
        if response
            .content_length()
            .is_some_and(|n| n > self.max_body as u64)
        {
            return Err(EvalError::TooLarge(self.max_body));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| self.transport_error(e))?
        {
            if bytes.len() + chunk.len() > self.max_body {
                return Err(EvalError::TooLarge(self.max_body));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Timeouts and connection failures, described without headers or key.
    pub fn transport_error(&self, error: reqwest::Error) -> EvalError {
        if error.is_timeout() {
            return EvalError::Timeout;
        }
        let what = if error.is_connect() {
            "could not connect"
        } else if error.is_body() || error.is_decode() {
            "connection broken while reading the response"
        } else {
            "request failed"
        };
        // The innermost cause ("Connection refused") says the most.
        let mut cause: Option<&dyn std::error::Error> = std::error::Error::source(&error);
        while let Some(deeper) = cause.and_then(|c| c.source()) {
            cause = Some(deeper);
        }
        let detail = self.redact(&cause.map(|c| c.to_string()).unwrap_or_default());
        let host = without_credentials(&self.base_url);
        EvalError::Network(if detail.is_empty() {
            format!("{what} to {host}")
        } else {
            format!("{what} to {host}: {detail}")
        })
    }

    /// Every message a provider wrote, whatever the error it came with, is scrubbed: a
    /// policy refusal or a network text can echo the key as well as a bad request can.
    pub fn redact_error(&self, error: EvalError) -> EvalError {
        match error {
            EvalError::InvalidRequest(message) => EvalError::InvalidRequest(self.redact(&message)),
            EvalError::Refused(message) => EvalError::Refused(self.redact(&message)),
            EvalError::Network(message) => EvalError::Network(self.redact(&message)),
            EvalError::Redirected(host) => EvalError::Redirected(self.redact(&host)),
            other => other,
        }
    }

    /// Providers sometimes echo the key back in messages and answers; never pass it on
    /// (nor anything shaped like another provider's key).
    pub fn redact(&self, text: &str) -> String {
        super::scrub::scrub(text, &self.key)
    }

    /// A parsed verdict's strings scrubbed again (what the parser decoded included).
    pub fn redact_verdict(&self, verdict: &mut super::types::EvaluatorVerdict) {
        super::scrub::scrub_verdict(verdict, &self.key)
    }
}

/// An endpoint as messages show it: scheme, host, port and path, never a user name or
/// password written into the address, nor its query. Text that does not parse as a URL is
/// not shown at all.
fn without_credentials(base_url: &str) -> String {
    match reqwest::Url::parse(base_url) {
        Ok(mut url) => {
            let _ = url.set_username("");
            let _ = url.set_password(None);
            url.set_query(None);
            url.set_fragment(None);
            url.to_string()
        }
        Err(_) => "the configured endpoint".into(),
    }
}

/// The host a redirect points at (never its query, which could carry anything).
fn redirect_host(response: &Response) -> String {
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    response
        .url()
        .join(location)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .unwrap_or_else(|| "an unknown host".into())
}

#[cfg(test)]
mod tests {
    use super::without_credentials;

    #[test]
    fn an_endpoint_is_shown_without_the_credentials_written_into_it() {
        for (given, shown) in [
            (
                "http://user:BASEURLPASSWORD@127.0.0.1:1/v1",
                "http://127.0.0.1:1/v1",
            ),
            (
                "https://u:p%40ss@api.example.com/?key=SECRET",
                "https://api.example.com/",
            ),
            ("https://api.example.com", "https://api.example.com/"),
            ("not a url u:SECRET@", "the configured endpoint"),
        ] {
            assert_eq!(without_credentials(given), shown);
        }
    }
}
