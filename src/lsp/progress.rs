//! Work-done progress for evaluations ("check 3/6, run 2/3"), cancellable by the client.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use dashmap::DashMap;
use tokio_util::sync::CancellationToken;
use tower_lsp_server::ls_types::{NumberOrString, ProgressToken};
use tower_lsp_server::{Bounded, Cancellable, Client, OngoingProgress};

use crate::engine::runner::{Progress, ProgressFn};

static NEXT: AtomicU64 = AtomicU64::new(1);

/// Progress tokens of running evaluations → their cancellation tokens.
pub type Tokens = Arc<DashMap<String, CancellationToken>>;

pub struct EvalProgress {
    key: String,
    tokens: Tokens,
    forwarder: Option<tokio::task::JoinHandle<Option<OngoingProgress<Bounded, Cancellable>>>>,
}

impl EvalProgress {
    /// Ask the client for a progress token (when it supports them) and begin.
    /// Returns the callback for the runner.
    pub async fn start(
        client: &Client,
        supported: bool,
        tokens: Tokens,
        cancel: CancellationToken,
        title: String,
    ) -> (EvalProgress, Option<ProgressFn>) {
        let key = format!("byop-eval-{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let none = |tokens| {
            (
                EvalProgress {
                    key: String::new(),
                    tokens,
                    forwarder: None,
                },
                None,
            )
        };
        if !supported {
            return none(tokens);
        }
        let token = NumberOrString::String(key.clone());
        // Known before the client hears of it: a cancel sent right after the client answers
        // `create` can be handled before that answer resumes us, and must not be lost.
        tokens.insert(key.clone(), cancel);
        if let Err(e) = client.create_work_done_progress(token.clone()).await {
            tracing::debug!("client refused a progress token: {e}");
            tokens.remove(&key);
            return none(tokens);
        }
        let ongoing = client
            .progress(token as ProgressToken, title)
            .with_percentage(0)
            .with_cancel_button()
            .with_message("starting")
            .begin()
            .await;
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Progress>();
        let forwarder = tokio::spawn(async move {
            while let Some(p) = rx.recv().await {
                ongoing
                    .report_with_message(p.message(), p.percentage(), None)
                    .await;
            }
            Some(ongoing)
        });
        let callback: ProgressFn = Arc::new(move |p: Progress| {
            let _ = tx.send(p);
        });
        (
            EvalProgress {
                key,
                tokens,
                forwarder: Some(forwarder),
            },
            Some(callback),
        )
    }

    /// End the progress (after the runner dropped its callback).
    pub async fn finish(self, message: String) {
        self.tokens.remove(&self.key);
        if let Some(f) = self.forwarder
            && let Ok(Some(ongoing)) = f.await
        {
            ongoing.finish_with_message(message).await;
        }
    }
}
