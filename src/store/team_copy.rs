//! A team store with a local copy, for a long-lived client (the language server) that
//! must keep working when the server goes away.
//!
//! While the server answers, the client reads and writes there, and what it loads for a
//! document (the reports it shows, its baseline) is also kept in a local copy: a SQLite
//! store in the user's data folder (`team-copies/`, folder 0700, file 0600), keyed with
//! the team key. When the server cannot be reached, the client is handed the local copy
//! instead, with a notice, once per outage: evaluations go on, with the drift reference
//! and baselines it already loaded, and their results are written to the copy. The time
//! the outage began is kept beside the copy (`.pending`), so that when the server answers
//! again (tried at most every [`RETRY`]) everything the copy received since is exported
//! and imported into the server (each line's MAC checked, rows already there kept), and
//! the audit rows of the evaluations made offline are appended to the server's keyed
//! chain, once each, after the copy's own chain verified (see `audit_merge`), with a
//! notice saying what was written.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::error::StoreError;
use super::{Store, location, pg, secret};
use crate::model::{Report, now_rfc3339};

/// How long a connection to the server may take before it counts as unreachable.
const TIMEOUT: Duration = Duration::from_secs(2);
/// How often an unreachable server is tried again (on use, never in the background).
pub const RETRY: Duration = Duration::from_secs(3);

/// A team store and its local copy.
pub struct TeamCopy {
    url: String,
    key: [u8; 32],
    local: Arc<Store>,
    /// Holds the time (RFC 3339) the current outage began; absent while online.
    pending: PathBuf,
    state: Mutex<Link>,
}

struct Link {
    server: Option<Arc<Store>>,
    /// When the server may be tried again (None: now).
    next_try: Option<Instant>,
    /// The user was told of the current outage.
    told: bool,
}

/// The store to use now, and what to tell the user about the switch, if anything.
pub struct Current {
    pub store: Arc<Store>,
    pub online: bool,
    pub notice: Option<String>,
}

impl TeamCopy {
    /// The team store at `url` and its local copy (opened now; the server on first use).
    /// Needs the team key and a user data folder.
    pub fn open(url: &str) -> Result<TeamCopy, StoreError> {
        let shown = location::redact(url);
        let key = secret::team_key()?.ok_or_else(|| {
            StoreError(format!(
                "{shown}: a team store needs the team key: set BYOP_STORE_KEY (64 hex digits, the same for every member)"
            ))
        })?;
        let dir = secret::data_dir().ok_or_else(|| {
            StoreError(format!(
                "{shown}: no user data folder to keep the team store's local copy in (set BYOP_DATA_DIR)"
            ))
        })?;
        let name = &crate::model::integrity::sha256_hex(shown.as_bytes())[..16];
        let path = dir.join("team-copies").join(format!("{name}.db"));
        let local = Arc::new(Store::open_with_key(&path, key)?);
        Ok(TeamCopy {
            url: url.to_string(),
            key,
            local,
            pending: path.with_extension("pending"),
            state: Mutex::new(Link {
                server: None,
                next_try: None,
                told: false,
            }),
        })
    }

    /// The local copy's file.
    pub fn local_path(&self) -> PathBuf {
        self.local.path()
    }

    /// The server when it answers (first writing to it what the copy received while it
    /// did not), else the local copy. A notice when this call found the server gone, or
    /// back.
    pub fn current(&self) -> Current {
        let mut link = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(server) = link.server.clone() {
            match server.ping() {
                // A write-back that failed is tried again.
                Ok(()) => {
                    let notice = self.pending.exists().then(|| self.write_back(&server));
                    return self.online(server, notice.flatten());
                }
                Err(e) => {
                    link.server = None;
                    link.next_try = Some(Instant::now() + RETRY);
                    return self.offline(&mut link, e);
                }
            }
        }
        if link.next_try.is_some_and(|t| Instant::now() < t) {
            let why = StoreError("not tried again yet".into());
            return self.offline(&mut link, why);
        }
        let opened = pg::probe(&self.url, TIMEOUT)
            .and_then(|()| Store::open_postgres_within(&self.url, self.key, Some(TIMEOUT)));
        match opened {
            Ok(server) => {
                let server = Arc::new(server);
                link.server = Some(server.clone());
                link.next_try = None;
                link.told = false;
                let notice = self.write_back(&server);
                self.online(server, notice)
            }
            Err(e) => {
                link.next_try = Some(Instant::now() + RETRY);
                self.offline(&mut link, e)
            }
        }
    }

    fn online(&self, store: Arc<Store>, notice: Option<String>) -> Current {
        Current {
            store,
            online: true,
            notice,
        }
    }

    /// The local copy, the outage's start recorded; a notice the first time (`why`: the
    /// server's error).
    fn offline(&self, link: &mut Link, why: StoreError) -> Current {
        if !self.pending.exists()
            && let Err(err) = write_private(&self.pending, &now_rfc3339())
        {
            tracing::warn!("{err}");
        }
        let notice = (!link.told).then(|| {
            link.told = true;
            let why = match why.0.strip_prefix(pg::UNREACHABLE) {
                Some(_) => why.0,
                None => format!("{} {}: {why}", pg::UNREACHABLE, location::redact(&self.url)),
            };
            format!(
                "{why}. byop keeps working from its local copy ({}): results are kept there and written to the team store when it is back.",
                self.local.path().display()
            )
        });
        Current {
            store: self.local.clone(),
            online: false,
            notice,
        }
    }

    /// Write what the copy received since the outage began to the server, then append
    /// the audit rows it recorded to the server's chain; a notice. Tried again next time
    /// unless both succeed.
    fn write_back(&self, server: &Store) -> Option<String> {
        let since = std::fs::read_to_string(&self.pending).ok()?;
        let mut lines = Vec::new();
        let moved = self
            .local
            .export(Some(since.trim()), &self.key, &mut lines)
            .and_then(|_| server.import(&mut lines.as_slice(), "the local copy", &self.key))
            .and_then(|m| self.write_back_audit(server).map(|n| (m, n)));
        let shown = location::redact(&self.url);
        Some(match moved {
            Ok((m, audit_rows)) => {
                if let Err(e) = std::fs::remove_file(&self.pending) {
                    tracing::warn!("{}: {e}", self.pending.display());
                }
                format!(
                    "The team store {shown} answers again: {} report(s), {} rerun(s), {} baseline(s) and {} counterfactual audit(s) kept locally meanwhile were written to it, and {audit_rows} audit row(s) appended to its audit log.",
                    m.reports, m.reruns, m.baselines, m.counterfactual_audits
                )
            }
            Err(e) => format!(
                "The team store {shown} answers again, but what was kept locally could not be written to it ({e}); it is tried again next time."
            ),
        })
    }

    /// Append the audit rows the copy recorded since the last write-back to the server's
    /// chain, once each (see `audit_merge`): only when the copy's own chain verifies
    /// under the team key; how many were appended.
    fn write_back_audit(&self, server: &Store) -> Result<usize, StoreError> {
        let mark_path = self.pending.with_extension("audit-sent");
        // The mark names a row by id and hash; a copy replaced since starts from its
        // first row (the server leaves out what it already holds).
        let after = match read_mark(&mark_path) {
            Some((id, hash)) => match self.local.audit_row(id)? {
                Some(row) if row.row_hash == hash => id,
                _ => 0,
            },
            None => 0,
        };
        let rows = self.local.audit_after(after)?;
        let Some(last) = rows.last() else {
            return Ok(0);
        };
        if let Err(b) = self.local.verify_audit()? {
            return Err(StoreError(format!(
                "the local copy's audit log does not verify at row {}: {}; its rows were not appended",
                b.id, b.reason
            )));
        }
        let events: Vec<_> = rows.iter().map(|r| r.event.clone()).collect();
        let appended = server.append_audit_once(&events)?;
        let mark = serde_json::json!({"last_id": last.id, "last_hash": last.row_hash});
        if let Err(e) = write_private(&mark_path, &mark.to_string()) {
            // The server leaves out rows it holds: a lost mark sends them again, harmlessly.
            tracing::warn!("{e}");
        }
        Ok(appended)
    }

    /// Keep `reports` of `doc_key` (loaded from the server) and the document's baseline
    /// under `playbook_hash` in the local copy, for when the server cannot be reached.
    /// Nothing while the server is unreachable (what the copy holds then is its own).
    pub fn keep(&self, doc_key: &str, playbook_hash: &str, reports: &[&Report]) {
        let server = self
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .server
            .clone();
        let Some(server) = server else {
            return;
        };
        let kept = (|| {
            for r in reports {
                self.local.save_report(doc_key, r)?;
            }
            if let Some(b) = server.baseline(doc_key, playbook_hash)? {
                self.local.save_report(doc_key, &b)?;
                self.local.save_baseline(doc_key, &b.report_id)?;
            }
            Ok::<_, StoreError>(())
        })();
        if let Err(e) = kept {
            tracing::warn!("keeping a local copy of the team store's rows: {e}");
        }
    }
}

/// Write `text` to a file only this user may read (created so when new).
fn write_private(path: &Path, text: &str) -> Result<(), StoreError> {
    secret::create_private_file(path)?;
    std::fs::write(path, text).map_err(|e| StoreError(format!("{}: {e}", path.display())))
}

/// The last audit row written back: (id, hash).
fn read_mark(path: &Path) -> Option<(i64, String)> {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    Some((v["last_id"].as_i64()?, v["last_hash"].as_str()?.to_string()))
}
