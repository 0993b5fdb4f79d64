//! Retry policy: which errors are transient, and how long to wait.
use std::time::{Duration, SystemTime};

use super::types::EvalError;

/// Longest `retry-after` we honour; a provider asking for more gets this.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(60);

/// Errors worth another attempt after a pause (bounded by `max_retries`).
pub fn is_transient(err: &EvalError) -> bool {
    matches!(
        err,
        EvalError::RateLimited { .. }
            | EvalError::Overloaded
            | EvalError::Server(_)
            | EvalError::Timeout
            | EvalError::Network(_)
    )
}

/// Errors answered by exactly one more call (the model may do better).
pub fn is_bad_answer(err: &EvalError) -> bool {
    matches!(err, EvalError::Malformed | EvalError::Truncated)
}

/// Wait before retry number `attempt` (0-based): the provider's
/// `retry-after` when given (capped), else `base * 2^attempt` plus up to 50% jitter.
pub fn backoff(err: &EvalError, attempt: u32, base: Duration) -> Duration {
    if let EvalError::RateLimited {
        retry_after: Some(wait),
    } = err
    {
        return (*wait).min(MAX_RETRY_AFTER);
    }
    let exponential = base.saturating_mul(1u32 << attempt.min(16));
    let jitter = exponential.mul_f64(fastrand::f64() * 0.5);
    exponential.saturating_add(jitter).min(MAX_RETRY_AFTER)
}

/// `retry-after` header value: delay seconds or an HTTP-date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0)
            .then(|| Duration::from_secs_f64(secs.min(3600.0)));
    }
    let when =
        time::OffsetDateTime::parse(value, &time::format_description::well_known::Rfc2822).ok()?;
    let when = SystemTime::from(when);
    Some(
        when.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("-1"), None);
        assert_eq!(parse_retry_after("soon"), None);
        // A date in the past means "now".
        assert_eq!(
            parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"),
            Some(Duration::ZERO)
        );
        let future = time::OffsetDateTime::now_utc() + time::Duration::seconds(30);
        let header = future
            .format(&time::format_description::well_known::Rfc2822)
            .unwrap();
        let wait = parse_retry_after(&header).unwrap();
        assert!(
            wait > Duration::from_secs(25) && wait <= Duration::from_secs(30),
            "{wait:?}"
        );
    }

    #[test]
    fn backoff_doubles_and_honours_capped_retry_after() {
        let base = Duration::from_millis(100);
        for attempt in 0..4 {
            let wait = backoff(&EvalError::Overloaded, attempt, base);
            let floor = base * (1 << attempt);
            assert!(
                wait >= floor && wait <= floor.mul_f64(1.5),
                "{attempt}: {wait:?}"
            );
        }
        let asked = EvalError::RateLimited {
            retry_after: Some(Duration::from_secs(3)),
        };
        assert_eq!(backoff(&asked, 0, base), Duration::from_secs(3));
        let greedy = EvalError::RateLimited {
            retry_after: Some(Duration::from_secs(600)),
        };
        assert_eq!(backoff(&greedy, 0, base), MAX_RETRY_AFTER);
    }

    #[test]
    fn classification() {
        assert!(is_transient(&EvalError::Timeout));
        assert!(is_transient(&EvalError::Server(502)));
        assert!(!is_transient(&EvalError::Auth));
        assert!(!is_transient(&EvalError::QuotaExhausted));
        assert!(!is_transient(&EvalError::InvalidRequest("x".into())));
        assert!(is_bad_answer(&EvalError::Malformed));
        assert!(!is_bad_answer(&EvalError::Timeout));
    }
}
