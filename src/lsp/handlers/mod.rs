//! One small handler per LSP method: `requests` answer, `notifications` react.
//! `server.rs` routes each method here.

pub mod notifications;
pub mod requests;
