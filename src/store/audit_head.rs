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
    sweep_orphans(dir);
    let tmp = tempfile::Builder::new()
        .prefix(&format!("{TMP_PREFIX}{}-", std::process::id()))
        .tempfile_in(dir)
        .map_err(|e| format!("cannot write in {}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(head).expect("heads serialize");
    std::fs::write(tmp.path(), text).map_err(|e| format!("cannot write the audit head: {e}"))?;
    tmp.persist(path)
        .map(|_| ())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Temporary head files are named `.head-PID-…`: the writer's process id says whose it is.
const TMP_PREFIX: &str = ".head-";

/// Remove temporary head files whose writer is gone (killed between writing and renaming):
/// without this each such crash leaves one behind for good. Only where `/proc` says which
/// processes live; a file of a live process, this one included, is never touched.
fn sweep_orphans(dir: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TMP_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
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
        let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 1, "no temporary file is left: {names:?}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "private to the user: {mode:o}");
        }
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_temporary_head_left_by_a_killed_writer_is_removed_and_a_live_one_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = head_path(dir.path(), Path::new("/ws/.byop/byop.db"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let heads = path.parent().unwrap();
        // A process that has exited: its id is free (and not reused within the test).
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        let gone_pid = gone.id();
        gone.wait().unwrap();
        let orphan = heads.join(format!("{TMP_PREFIX}{gone_pid}-abc"));
        let live = heads.join(format!("{TMP_PREFIX}{}-def", std::process::id()));
        let other = heads.join("notes.txt");
        for f in [&orphan, &live, &other] {
            std::fs::write(f, "{").unwrap();
        }
        store(
            &path,
            &Head {
                database: "/ws/.byop/byop.db".into(),
                first_hash: "f".into(),
                last_id: 1,
                last_hash: "h1".into(),
            },
        )
        .unwrap();
        assert!(!orphan.exists(), "the killed writer's file is removed");
        assert!(live.exists(), "a live writer's file is kept");
        assert!(
            other.exists(),
            "files that are not temporary heads are kept"
        );
        assert!(load(&path).unwrap().is_some());
    }
}
