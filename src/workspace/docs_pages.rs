//! The generated check pages on disk, for links (LSP `codeDescription`) when a check
//! has no `help_uri`: written once per playbook logic hash, under the temp folder.

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
            .or_insert_with(|| {
                let key: String = playbook
                    .logic_hash
                    .trim_start_matches("sha256:")
                    .chars()
                    .take(16)
                    .collect();
                let dir = std::env::temp_dir().join("byop-docs").join(key);
                let pages = write_pages(&dir, playbook).unwrap_or_else(|e| {
                    tracing::warn!("cannot write check pages to {}: {e}", dir.display());
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

/// Write one page per check under `dir/<playbook id>/<check id>.md`; returns (check id, path).
pub fn write_pages(
    dir: &Path,
    playbook: &LoadedPlaybook,
) -> std::io::Result<Vec<(String, PathBuf)>> {
    let folder = dir.join(sanitize(&playbook.playbook.id));
    std::fs::create_dir_all(&folder)?;
    let mut out = Vec::new();
    for (i, check) in playbook.playbook.checks.iter().enumerate() {
        let path = folder.join(format!("{}.md", sanitize(&check.id)));
        let body = check_markdown(playbook, i);
        // Rewrite only when changed: editors may have the page open.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(body.as_str()) {
            std::fs::write(&path, body)?;
        }
        out.push((check.id.clone(), path));
    }
    Ok(out)
}

fn sanitize(s: &str) -> String {
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
}
