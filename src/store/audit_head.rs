//! The audit log's head, kept outside the database: which database it belongs to (its
//! first row's hash), its last row's id and hash. A store can be edited by anyone who can
//! write the workspace; the head lives in the user's data folder, so deleting the last
//! rows, all rows, or swapping the whole database is seen when the log is verified.
//!
//! The head is written after the rows commit, so a crash between the two leaves the head
//! behind the log, never ahead of it: rows after the head are accepted when they chain
//! (they carry the chain key's MAC), rows missing before it are not.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::model::integrity::sha256_hex;

/// Folder (under the user's data folder) holding one head file per database.
pub const HEADS_DIR: &str = "audit-heads";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Head {
    /// The database the head belongs to, for people reading the file.
    pub database: String,
    /// The first row's hash: which log this is.
    pub first_hash: String,
    pub last_id: i64,
    pub last_hash: String,
}

/// The head file for the database at `db` (canonical path), in the user's data folder.
pub fn head_path(data_dir: &Path, db: &Path) -> PathBuf {
    let name = sha256_hex(db.to_string_lossy().as_bytes());
    data_dir
        .join(HEADS_DIR)
        .join(format!("{}.json", &name[..32]))
}

/// The recorded head; `Ok(None)` when there is none yet.
pub fn load(path: &Path) -> Result<Option<Head>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| format!("{} is not an audit head: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Record `head` unless the file already holds a later one of the same log (another
/// process appended meanwhile). Written whole (temporary file, then rename), mode 0600.
pub fn store(path: &Path, head: &Head) -> Result<(), String> {
    if let Ok(Some(current)) = load(path)
        && current.first_hash == head.first_hash
        && current.last_id > head.last_id
    {
        return Ok(());
    }
    let dir = path.parent().expect("head files live in a folder");
    super::secret::private_dir(dir).map_err(|e| e.0)?;
    let tmp = tempfile::NamedTempFile::new_in(dir)
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(head).expect("heads serialize");
    std::fs::write(tmp.path(), text).map_err(|e| format!("cannot write the audit head: {e}"))?;
    tmp.persist(path)
        .map(|_| ())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_written_whole_and_never_moved_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = head_path(dir.path(), Path::new("/ws/.byop/byop.db"));
        assert_eq!(load(&path).unwrap(), None);
        let head = |last_id| Head {
            database: "/ws/.byop/byop.db".into(),
            first_hash: "f".into(),
            last_id,
            last_hash: format!("h{last_id}"),
        };
        store(&path, &head(5)).unwrap();
        store(&path, &head(3)).unwrap();
        assert_eq!(load(&path).unwrap(), Some(head(5)), "a later head stays");
        store(&path, &head(7)).unwrap();
        assert_eq!(load(&path).unwrap(), Some(head(7)));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "private to the user: {mode:o}");
        }
    }
}
