//! The generated check pages on disk, for links (LSP `codeDescription`) when a check
//! has no `help_uri`: written once per playbook logic hash, in a folder private to the
//! user (`$XDG_RUNTIME_DIR/byop-docs`, else the user's cache folder), created 0700 and
//! refused when it is a link or open to others. Pages are written to a fresh temporary
//! file and renamed into place, so a planted link is replaced, never followed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use dashmap::DashMap;

use crate::engine::docs::check_markdown;
use crate::engine::playbook::LoadedPlaybook;

/// Check id → the `file://` URI of its page.
#[derive(Debug, Clone, Default)]
pub struct DocPages(HashMap<String, String>);

impl DocPages {
    pub fn uri(&self, check_id: &str) -> Option<String> {
        self.0.get(check_id).cloned()
    }
}

/// Pages by playbook logic hash; each playbook's pages are written on first use.
#[derive(Default)]
pub struct DocPagesCache(DashMap<String, Arc<DocPages>>);

impl DocPagesCache {
    pub fn pages(&self, playbook: &LoadedPlaybook) -> Arc<DocPages> {
        self.0
            .entry(playbook.logic_hash.clone())
            // Twelve hex digits tell a user's playbook versions apart in their own
            // folder and keep each diagnostic's page link short.
            .or_insert_with(|| {
                let key: String = playbook
                    .logic_hash
                    .trim_start_matches("sha256:")
                    .chars()
                    .take(12)
                    .collect();
                let pages = match private_dir() {
                    Ok(base) => write_pages(&base.join(key), playbook),
                    Err(e) => Err(e),
                }
                .unwrap_or_else(|e| {
                    tracing::warn!("cannot write check pages: {e}");
                    Vec::new()
                });
                Arc::new(DocPages(
                    pages
                        .into_iter()
                        .map(|(id, p)| (id, format!("file://{}", p.display())))
                        .collect(),
                ))
            })
            .clone()
    }
}

/// The user's private folder for pages: created 0700; a link, or a folder others may
/// write or read, is refused.
pub fn private_dir() -> std::io::Result<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = var("XDG_RUNTIME_DIR")
        .map(|d| d.join("byop-docs"))
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("byop/docs")))
        .or_else(|| std::env::home_dir().map(|h| h.join(".cache/byop/docs")))
        .ok_or_else(|| std::io::Error::other("no user folder for check pages"))?;
    private_folder(&base)?;
    Ok(base)
}

fn private_folder(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
        let meta = std::fs::symlink_metadata(dir)?;
        if !meta.is_dir() || meta.permissions().mode() & 0o077 != 0 {
            return Err(std::io::Error::other(format!(
                "{} is a link or open to other users; check pages are not written there",
                dir.display()
            )));
        }
    }
    #[cfg(not(unix))]
    std::fs::create_dir_all(dir)?;
    Ok(())
}

/// Write one page per check under `dir/<playbook id>/<check id>.md`; returns (check id, path).
pub fn write_pages(
    dir: &Path,
    playbook: &LoadedPlaybook,
) -> std::io::Result<Vec<(String, PathBuf)>> {
    let folder = dir.join(sanitize(&playbook.playbook.id));
    private_folder(&folder)?;
    let mut out = Vec::new();
    for (i, check) in playbook.playbook.checks.iter().enumerate() {
        let path = folder.join(format!("{}.md", sanitize(&check.id)));
        let body = check_markdown(playbook, i);
        // Rewrite only when changed (editors may have the page open); never through a link.
        let is_file = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
        if !is_file || std::fs::read_to_string(&path).ok().as_deref() != Some(body.as_str()) {
            let mut tmp = tempfile::NamedTempFile::new_in(&folder)?;
            std::io::Write::write_all(&mut tmp, body.as_bytes())?;
            tmp.persist(&path).map_err(|e| e.error)?;
        }
        out.push((check.id.clone(), path));
    }
    Ok(out)
}

/// A plain file name: letters, digits, `_`, `-`, `.`; never `.` or `..`.
fn sanitize(s: &str) -> String {
    if s.is_empty() || s.chars().all(|c| c == '.') {
        return "_".into();
    }
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_check_gets_a_page_on_disk() {
        let pb = crate::engine::playbook::builtin();
        let dir = tempfile::tempdir().unwrap();
        let pages = write_pages(dir.path(), &pb).unwrap();
        assert_eq!(pages.len(), pb.playbook.checks.len());
        let certainty = std::fs::read_to_string(&pages[1].1).unwrap();
        assert!(certainty.contains(&pb.playbook.checks[1].question));
    }

    #[cfg(unix)]
    #[test]
    fn pages_go_to_a_private_folder_and_replace_a_planted_link() {
        use std::os::unix::fs::PermissionsExt;
        let pb = crate::engine::playbook::builtin();
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "mine").unwrap();
        let folder = dir.path().join("pages").join(&pb.playbook.id);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(
            dir.path().join("pages"),
            std::fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        let planted = folder.join(format!("{}.md", pb.playbook.checks[0].id));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        write_pages(&dir.path().join("pages"), &pb).unwrap();
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "mine",
            "the link was not followed"
        );
        assert!(std::fs::symlink_metadata(&planted).unwrap().is_file());
        // A folder open to others is refused.
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(write_pages(&dir.path().join("pages"), &pb).is_err());
        assert_eq!(sanitize(".."), "_");
    }
}
