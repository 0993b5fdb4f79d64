//! A run as its listeners see it: the events it sends and the handle the server keeps for it.

use serde::Serialize;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

/// What the page hears about a run, as server-sent events.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum RunEvent {
    Started,
    Progress {
        message: String,
        done: usize,
        total: usize,
        percentage: u32,
    },
    Done {
        report_id: String,
        status: String,
        /// Why the report is fail-closed, when it is.
        #[serde(skip_serializing_if = "Option::is_none")]
        unavailable: Option<String>,
    },
    Failed {
        error: serde_json::Value,
    },
    Cancelled,
}

impl RunEvent {
    pub fn name(&self) -> &'static str {
        match self {
            RunEvent::Started => "started",
            RunEvent::Progress { .. } => "progress",
            RunEvent::Done { .. } => "done",
            RunEvent::Failed { .. } => "failed",
            RunEvent::Cancelled => "cancelled",
        }
    }
    pub fn is_final(&self) -> bool {
        !matches!(self, RunEvent::Started | RunEvent::Progress { .. })
    }
}

/// A run in flight (or finished): who started it, its cancel switch, its events so far
/// (a listener that comes late hears them all).
pub struct RunHandle {
    /// The session id, or `token` for API callers.
    pub owner: String,
    pub cancel: CancellationToken,
    pub events: watch::Receiver<Vec<RunEvent>>,
}
