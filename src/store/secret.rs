//! The per-user secret that binds stored rows to this user: an HMAC key in the user's
//! data folder (never in the workspace or the repository), created on first use.
//! `BYOP_DATA_DIR` overrides the folder. The folder is created 0700 and the key 0600;
//! a key that others may read is refused, never used: whoever can read it can forge rows
//! and re-chain the audit log.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::StoreError;

pub const KEY_FILE: &str = "store-key";
/// The team key's file in the user's data folder (when `BYOP_STORE_KEY` is not set).
pub const TEAM_KEY_FILE: &str = "team-key";

/// The team key a shared store's rows are authenticated with: `BYOP_STORE_KEY` (in CI,
/// a secret), else the `team-key` file in the user's data folder; 64 hex digits, the
/// same for every member. Never from the workspace. `None` when neither is set.
pub fn team_key() -> Result<Option<[u8; 32]>, StoreError> {
    if let Some(text) = std::env::var("BYOP_STORE_KEY")
        .ok()
        .filter(|v| !v.trim().is_empty())
    {
        return parse_team_key(&text, "BYOP_STORE_KEY").map(Some);
    }
    let Some(path) = data_dir().map(|d| d.join(TEAM_KEY_FILE)) else {
        return Ok(None);
    };
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            refuse_shared(&path)?;
            parse_team_key(&text, &path.display().to_string()).map(Some)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(StoreError(format!("cannot read {}: {e}", path.display()))),
    }
}

/// 64 hex digits (256 bits): a passphrase would be guessable offline from any row's MAC.
fn parse_team_key(text: &str, from: &str) -> Result<[u8; 32], StoreError> {
    hex::decode(text.trim())
        .ok()
        .and_then(|b| <[u8; 32]>::try_from(b).ok())
        .ok_or_else(|| {
            StoreError(format!(
                "{from}: the team key must be 64 hex digits (`openssl rand -hex 32` makes one)"
            ))
        })
}

/// Why there is no per-user key.
#[derive(Debug)]
pub enum KeyError {
    /// No user folder to keep it in (or it cannot be written): a key for this process
    /// only will do, with a warning.
    Unavailable(StoreError),
    /// The key file exists but may not be used (others may read it, or it is not a key):
    /// an error naming the file and the fix.
    Refused(StoreError),
}

/// The key, loaded or created.
pub fn user_key() -> Result<[u8; 32], KeyError> {
    let dir = data_dir().ok_or_else(|| {
        KeyError::Unavailable(StoreError(
            "no user data folder (set HOME or BYOP_DATA_DIR)".into(),
        ))
    })?;
    let path = dir.join(KEY_FILE);
    if let Some(key) = read_key(&path).map_err(KeyError::Refused)? {
        return Ok(key);
    }
    private_dir(&dir).map_err(KeyError::Unavailable)?;
    create_key(&dir, &path)
}

fn create_key(dir: &Path, path: &Path) -> Result<[u8; 32], KeyError> {
    let key = random_key().map_err(KeyError::Unavailable)?;
    let unavailable = |what: String| KeyError::Unavailable(StoreError(what));
    // A named temporary file is created 0600.
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| {
        unavailable(format!(
            "cannot write the store key in {}: {e}",
            dir.display()
        ))
    })?;
    tmp.write_all(hex::encode(key).as_bytes())
        .map_err(|e| unavailable(format!("cannot write the store key: {e}")))?;
    // Another process may have created it meanwhile: then theirs is the key.
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(key),
        Err(_) => read_key(path)
            .map_err(KeyError::Refused)?
            .ok_or_else(|| unavailable("the store key vanished".into())),
    }
}

/// Create `dir` and any missing parents 0700 (folders that exist keep their mode).
pub fn private_dir(dir: &Path) -> Result<(), StoreError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(dir)
        .map_err(|e| StoreError(format!("cannot create folder {}: {e}", dir.display())))
}

/// A fresh key that lives only as long as the process (no user folder).
pub fn ephemeral_key() -> [u8; 32] {
    random_key().unwrap_or_else(|_| {
        // Only without an OS random source; rows then merely fail to verify later.
        let mut k = [0u8; 32];
        k.iter_mut().for_each(|b| *b = fastrand::u8(..));
        k
    })
}

fn random_key() -> Result<[u8; 32], StoreError> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| StoreError(format!("no random source: {e}")))?;
    Ok(key)
}

fn read_key(path: &Path) -> Result<Option<[u8; 32]>, StoreError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError(format!("cannot read {}: {e}", path.display()))),
    };
    refuse_shared(path)?;
    let bytes = hex::decode(text.trim())
        .map_err(|_| StoreError(format!("{} is not a byop store key", path.display())))?;
    let key: [u8; 32] = bytes
        .try_into()
        .map_err(|_| StoreError(format!("{} is not a byop store key", path.display())))?;
    Ok(Some(key))
}

/// `BYOP_DATA_DIR`, else `$XDG_DATA_HOME/byop`, else `~/.local/share/byop` (Linux) or
/// `~/Library/Application Support/byop` (macOS).
pub fn data_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(d) = var("BYOP_DATA_DIR") {
        return Some(d);
    }
    if let Some(d) = var("XDG_DATA_HOME") {
        return Some(d.join("byop"));
    }
    let home = std::env::home_dir()?;
    if cfg!(target_os = "macos") {
        Some(home.join("Library/Application Support/byop"))
    } else {
        Some(home.join(".local/share/byop"))
    }
}

/// A key file group or others may read (or write) is refused, like ssh refuses an
/// unprotected private key: the error names the file and the command that fixes it.
#[cfg(unix)]
fn refuse_shared(path: &Path) -> Result<(), StoreError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map_err(|e| StoreError(format!("cannot read {}: {e}", path.display())))?
        .permissions()
        .mode();
    if mode & 0o077 == 0 {
        return Ok(());
    }
    Err(StoreError(format!(
        "the store key {path} is not private (mode {mode:03o}): others on this machine may read it, and with it forge stored rows and the audit log. Not used. Make it yours alone with `chmod 600 {path}` (if others may have read it, delete it instead: a new key is made, and rows written under the old one no longer verify)",
        path = path.display(),
        mode = mode & 0o777
    )))
}

#[cfg(not(unix))]
fn refuse_shared(_: &Path) -> Result<(), StoreError> {
    Ok(())
}

/// Create the database file at `path` 0600 when it does not exist yet, so SQLite (which
/// gives its `-wal` and `-shm` files the database's mode) keeps every file private.
pub fn create_private_file(path: &Path) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        // A dangling link also "exists": SQLite would follow it and create the target
        // with the default mode, wherever it points.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && path.exists() => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(StoreError(format!(
            "cannot create {}: it is a symbolic link to nothing (remove it)",
            path.display()
        ))),
        Err(e) => Err(StoreError(format!("cannot create {}: {e}", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_key_is_256_bits_in_hex() {
        let hex64 = "ab".repeat(32);
        assert_eq!(parse_team_key(&hex64, "k").unwrap(), [0xab; 32]);
        let err = parse_team_key("correct horse battery staple", "BYOP_STORE_KEY")
            .unwrap_err()
            .0;
        assert!(err.contains("64 hex digits"), "{err}");
        assert!(!err.contains("horse"), "{err}");
        assert!(parse_team_key(&"ab".repeat(16), "k").is_err());
    }
}
