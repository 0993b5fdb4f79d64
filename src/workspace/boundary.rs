//! The trust boundary for files named by untrusted text: a document's front matter and a
//! workspace's `byop.toml` may only name regular files inside the workspace (after
//! symlinks are followed), of bounded size. A file the user names on the command line is
//! the user's choice, and only has to be a regular, bounded file.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Companions larger than this are refused (a document is not a database dump).
pub const MAX_COMPANION_BYTES: u64 = 5 * 1024 * 1024;

/// Pseudo-file systems: never documents, whatever a root says.
const SPECIAL: [&str; 3] = ["/proc", "/sys", "/dev"];

/// Refuse when `path` is not below `root`, climbs out with `..`, or one of its existing
/// components below `root` is a symbolic link: byop never creates or writes through a link
/// the repository may have committed (it could point anywhere, or nowhere yet).
pub fn no_links_below(root: &Path, path: &Path) -> Result<(), String> {
    let rel = path
        .strip_prefix(root)
        .map_err(|_| format!("{} is not inside {}", path.display(), root.display()))?;
    let mut at = root.to_path_buf();
    for part in rel.components() {
        let std::path::Component::Normal(name) = part else {
            return Err(format!("{} leaves {}", path.display(), root.display()));
        };
        at.push(name);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(format!(
                    "{} is a symbolic link (byop never writes through a link a repository may have committed; remove it)",
                    at.display()
                ));
            }
            Ok(_) => {}
            Err(_) => break,
        }
    }
    Ok(())
}

/// Create the folder `path` below `root` one component at a time, refusing (before
/// creating anything) a symbolic link or a non-folder on the way: output a repository
/// steers through a committed link would land outside it.
pub fn make_dirs_below(root: &Path, path: &Path) -> Result<(), String> {
    no_links_below(root, path)?;
    let mut at = root.to_path_buf();
    for part in path.strip_prefix(root).unwrap_or(path).components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Err(format!("{} exists and is not a folder", at.display())),
            Err(_) => std::fs::create_dir(&at).map_err(|e| format!("{}: {e}", at.display()))?,
        }
    }
    Ok(())
}

/// Folders whose files untrusted text never names, wherever they are in the workspace:
/// git's (its `config` may hold a checkout's credential) and byop's store folder.
const PRIVATE_FOLDERS: [&str; 2] = [".git", ".byop"];

/// The folders untrusted text may name files in.
#[derive(Debug, Clone, Default)]
pub struct Boundary {
    roots: Vec<PathBuf>,
    /// Folders whose own files (not their subfolders') may be named: a document's folder
    /// when no workspace root (`byop.toml`, `.git`, an opened folder) is above it.
    flat: Vec<PathBuf>,
}

impl Boundary {
    /// Roots are canonicalized; ones that do not exist are dropped.
    pub fn new(roots: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut roots: Vec<PathBuf> = roots
            .into_iter()
            .filter_map(|r| std::fs::canonicalize(r).ok())
            .collect();
        roots.sort();
        roots.dedup();
        Boundary {
            roots,
            flat: Vec::new(),
        }
    }

    /// Also the files directly in `dir` (canonicalized; dropped if it does not exist).
    pub fn with_flat(mut self, dir: &Path) -> Self {
        self.flat.extend(std::fs::canonicalize(dir).ok());
        self
    }

    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// The canonical path of a file untrusted text names, if it may be read.
    pub fn confined(&self, path: &Path) -> Result<PathBuf, String> {
        let real = std::fs::canonicalize(path).map_err(|e| format!("{e}"))?;
        let in_flat = real
            .parent()
            .is_some_and(|p| self.flat.iter().any(|f| f == p));
        if !in_flat && !self.roots.iter().any(|r| real.starts_with(r)) {
            let roots: Vec<String> = self
                .roots
                .iter()
                .map(|r| r.display().to_string())
                .chain(self.flat.iter().map(|f| {
                    format!(
                        "{} (its own files only: no byop.toml or .git marks a workspace)",
                        f.display()
                    )
                }))
                .collect();
            return Err(format!(
                "it resolves to {}, outside the workspace ({})",
                real.display(),
                if roots.is_empty() {
                    "none".into()
                } else {
                    roots.join(", ")
                }
            ));
        }
        let below = self
            .roots
            .iter()
            .filter_map(|r| real.strip_prefix(r).ok())
            .chain(real.file_name().map(Path::new))
            .flat_map(Path::components);
        if let Some(name) = below
            .map(|c| c.as_os_str())
            .find(|n| PRIVATE_FOLDERS.iter().any(|p| n == p))
        {
            return Err(format!(
                "{} is inside a `{}` folder (git's configuration and credentials, byop's store): never a companion",
                real.display(),
                name.to_string_lossy()
            ));
        }
        regular_file(real)
    }
}

/// The canonical path of a file the user named, if it is a regular, bounded file.
pub fn user_file(path: &Path) -> Result<PathBuf, String> {
    let real = std::fs::canonicalize(path).map_err(|e| format!("{e}"))?;
    regular_file(real)
}

fn regular_file(real: PathBuf) -> Result<PathBuf, String> {
    if SPECIAL.iter().any(|s| real.starts_with(s)) {
        return Err(format!(
            "{} is a system file, not a document",
            real.display()
        ));
    }
    let meta = std::fs::metadata(&real).map_err(|e| format!("{e}"))?;
    if !meta.is_file() {
        return Err(format!("{} is not a regular file", real.display()));
    }
    if meta.len() > MAX_COMPANION_BYTES {
        return Err(format!(
            "{} is larger than the {} MB limit",
            real.display(),
            MAX_COMPANION_BYTES / (1024 * 1024)
        ));
    }
    Ok(real)
}

/// Read at most the limit (the file may have grown since it was checked).
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_COMPANION_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{e}"))?;
    if bytes.len() as u64 > MAX_COMPANION_BYTES {
        return Err(format!("{} grew past the size limit", path.display()));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_inside_a_root_pass() {
        let ws = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(ws.path().join("nda.txt"), "x").unwrap();
        std::fs::write(outside.path().join("secret.txt"), "x").unwrap();
        let b = Boundary::new([ws.path().to_path_buf()]);
        assert!(b.confined(&ws.path().join("nda.txt")).is_ok());
        let e = b.confined(
            &ws.path()
                .join("../")
                .join(outside.path().file_name().unwrap())
                .join("secret.txt"),
        );
        assert!(e.unwrap_err().contains("outside the workspace"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(
                outside.path().join("secret.txt"),
                ws.path().join("link.txt"),
            )
            .unwrap();
            let e = b.confined(&ws.path().join("link.txt")).unwrap_err();
            assert!(
                e.contains("outside the workspace"),
                "symlinks are followed: {e}"
            );
        }
        std::fs::create_dir(ws.path().join("dir")).unwrap();
        assert!(
            b.confined(&ws.path().join("dir"))
                .unwrap_err()
                .contains("not a regular file")
        );
        assert!(b.confined(&ws.path().join("missing.txt")).is_err());
    }

    #[test]
    fn system_files_and_huge_files_never_pass() {
        let everything = Boundary::new([PathBuf::from("/")]);
        for p in ["/proc/self/environ", "/dev/zero", "/dev/stdin"] {
            if Path::new(p).exists() {
                assert!(everything.confined(Path::new(p)).is_err(), "{p}");
                assert!(user_file(Path::new(p)).is_err(), "{p}");
            }
        }
        let ws = tempfile::tempdir().unwrap();
        let big = ws.path().join("big.txt");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(MAX_COMPANION_BYTES + 1).unwrap();
        let e = user_file(&big).unwrap_err();
        assert!(e.contains("size limit") || e.contains("MB limit"), "{e}");
    }
}
