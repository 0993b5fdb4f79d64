//! One pause for all calls to a provider: when it answers 429 with `retry-after`,
//! every call waits until then, not only the one that was told.

use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

#[derive(Default)]
pub(super) struct Pacing {
    until: Mutex<Option<Instant>>,
}

impl Pacing {
    /// No call starts before `now + wait` (a longer pause already set stays).
    pub fn pause_for(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut u = self.until.lock().unwrap_or_else(|e| e.into_inner());
        if u.is_none_or(|cur| cur < until) {
            *u = Some(until);
        }
    }

    /// Wait out the current pause, if any.
    pub async fn ready(&self) {
        let until = *self.until.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = until.filter(|t| *t > Instant::now()) {
            tokio::time::sleep_until(t).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn every_caller_waits_for_the_longest_pause() {
        let p = Pacing::default();
        p.pause_for(Duration::from_secs(3));
        p.pause_for(Duration::from_secs(1));
        let start = Instant::now();
        p.ready().await;
        assert_eq!(start.elapsed(), Duration::from_secs(3));
        p.ready().await;
        assert_eq!(start.elapsed(), Duration::from_secs(3), "no pause left");
    }
}
