//! One document resolver for the CLI and every language-server path: text → document
//! (front matter, companions) → workspace config → playbook. Configs and playbooks
//! are cached; `invalidate` drops them when `byop.toml` or a playbook file changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dashmap::DashMap;

use super::config::{Config, ConfigError};
use super::files::read_text;
use crate::engine::document::{Companion, CompanionRole, Document, DocumentError};
use crate::engine::playbook::{self, LoadedPlaybook};
use crate::model::Position;

/// Who chose the playbook a document is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlaybookSource {
    /// `--playbook` on the command line.
    Cli,
    /// The editor's `byop.playbook` setting.
    Settings,
    /// The workspace's `byop.toml`.
    Config,
    /// The document's own front matter.
    FrontMatter,
    /// Nobody: the built-in playbook.
    Default,
}

/// What to resolve, and what the user chose over the workspace.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub text: String,
    pub path: Option<&'a Path>,
    /// A playbook given on the command line, relative to the folder given with it.
    pub cli_playbook: Option<(String, PathBuf)>,
    /// The editor setting, relative to the workspace root.
    pub setting_playbook: Option<String>,
    /// Companions given on the command line, over the front matter's.
    pub source: Option<&'a Path>,
    pub prompt: Option<&'a Path>,
}

/// Something that did not resolve; the document is still usable (companions missing,
/// the built-in playbook instead). The CLI treats each as an input error.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub kind: ProblemKind,
    pub message: String,
    /// Where in the document it points (a front-matter key), if anywhere.
    pub position: Option<Position>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// `byop.toml` could not be read.
    Config,
    /// A companion (source, prompt) could not be read.
    Companion,
    /// The chosen playbook could not be loaded.
    Playbook,
}

#[derive(Debug, Clone)]
pub struct Resolved {
    pub doc: Document,
    pub playbook: LoadedPlaybook,
    pub playbook_source: PlaybookSource,
    pub config: Arc<Config>,
    pub problems: Vec<Problem>,
}

#[derive(Default)]
pub struct Resolver {
    /// By folder the discovery started from.
    configs: DashMap<PathBuf, Result<Arc<Config>, ConfigError>>,
    /// By (spec, folder it is relative to).
    playbooks: DashMap<(String, PathBuf), Result<LoadedPlaybook, String>>,
}

impl Resolver {
    pub fn new() -> Self {
        Self::default()
    }

    /// Forget cached configs and playbooks (a `byop.toml` or playbook file changed).
    pub fn invalidate(&self) {
        self.configs.clear();
        self.playbooks.clear();
    }

    /// The `byop.toml` governing `path` (untitled documents: the working folder).
    pub fn config_for(&self, path: Option<&Path>) -> Result<Arc<Config>, ConfigError> {
        let start = path
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        self.configs
            .entry(start.clone())
            .or_insert_with(|| Config::discover(&start).map(Arc::new))
            .clone()
    }

    /// A built-in id or a path relative to `base`, cached.
    pub fn playbook(&self, spec: &str, base: &Path) -> Result<LoadedPlaybook, String> {
        self.playbooks
            .entry((spec.to_string(), base.to_path_buf()))
            .or_insert_with(|| playbook::resolve(spec, base))
            .clone()
    }

    /// Parse, attach companions, choose the playbook. Only an unparseable document is an
    /// error; everything else that fails is a `Problem` beside a usable result.
    pub fn resolve(&self, req: Request) -> Result<Resolved, DocumentError> {
        let mut doc = Document::parse(req.text, req.path)?;
        let mut problems = Vec::new();
        let config = self.config_for(req.path).unwrap_or_else(|e| {
            problems.push(Problem {
                kind: ProblemKind::Config,
                message: e.0,
                position: None,
            });
            Arc::new(Config::default())
        });
        attach_companions(&mut doc, req.source, req.prompt, &mut problems);
        let (playbook, playbook_source) = self.choose_playbook(
            &doc,
            &config,
            req.cli_playbook,
            req.setting_playbook,
            &mut problems,
        );
        Ok(Resolved {
            doc,
            playbook,
            playbook_source,
            config,
            problems,
        })
    }

    /// `--playbook` › front matter › editor setting › `byop.toml` › built-in. One that
    /// cannot load is a problem, and the built-in playbook is used.
    fn choose_playbook(
        &self,
        doc: &Document,
        config: &Config,
        cli: Option<(String, PathBuf)>,
        setting: Option<String>,
        problems: &mut Vec<Problem>,
    ) -> (LoadedPlaybook, PlaybookSource) {
        let doc_dir = doc
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_else(|| config.root.clone());
        let choice = cli
            .map(|c| (c, PlaybookSource::Cli))
            .or_else(|| {
                let fm = doc.front_matter.playbook.clone()?;
                Some(((fm, doc_dir), PlaybookSource::FrontMatter))
            })
            .or_else(|| setting.map(|s| ((s, config.root.clone()), PlaybookSource::Settings)))
            .or_else(|| config.playbook_spec().map(|c| (c, PlaybookSource::Config)));
        let Some(((spec, base), source)) = choice else {
            return (playbook::builtin(), PlaybookSource::Default);
        };
        match self.playbook(&spec, &base) {
            Ok(pb) => (pb, source),
            Err(e) => {
                let position = (source == PlaybookSource::FrontMatter)
                    .then(|| doc.position(front_matter_key(doc, "playbook")));
                problems.push(Problem {
                    kind: ProblemKind::Playbook,
                    message: format!("playbook `{spec}` not loaded: {e}"),
                    position,
                });
                (playbook::builtin(), PlaybookSource::Default)
            }
        }
    }
}

fn front_matter_key(doc: &Document, key: &str) -> usize {
    crate::engine::document::front_matter::key_offset(&doc.text, key)
}

/// Companions: explicit paths (command line) over the front matter's, which are
/// relative to the document.
fn attach_companions(
    doc: &mut Document,
    source: Option<&Path>,
    prompt: Option<&Path>,
    problems: &mut Vec<Problem>,
) {
    let dir = doc
        .path
        .as_deref()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let wanted = [
        (
            CompanionRole::Source,
            source,
            doc.front_matter.source.clone(),
            "source",
        ),
        (
            CompanionRole::Prompt,
            prompt,
            doc.front_matter.prompt.clone(),
            "prompt",
        ),
    ];
    for (role, over, fm, key) in wanted {
        let Some(path) = over
            .map(Path::to_path_buf)
            .or_else(|| fm.map(|p| dir.join(p)))
        else {
            continue;
        };
        let what = match role {
            CompanionRole::Source => "source document",
            CompanionRole::Prompt => "prompt",
        };
        match read_text(&path) {
            Ok(text) => doc.attach(role, Companion { path, text }),
            Err(e) => problems.push(Problem {
                kind: ProblemKind::Companion,
                message: format!("cannot read {what} `{}`: {}", path.display(), e.message),
                position: over
                    .is_none()
                    .then(|| doc.position(front_matter_key(doc, key))),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(path: &Path) -> Resolved {
        let text = read_text(path).unwrap();
        Resolver::new()
            .resolve(Request {
                text,
                path: Some(path),
                ..Default::default()
            })
            .unwrap()
    }

    #[test]
    fn companions_resolve_relative_to_the_document() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/nda.txt"), "  NDA text\r\n").unwrap();
        let doc_path = dir.path().join("r.ai.md");
        std::fs::write(&doc_path, "---\nbyop:\n  source: src/nda.txt\n---\nReview").unwrap();
        let d = load(&doc_path).doc;
        assert_eq!(d.inputs.source_document, "NDA text");
        assert_eq!(d.inputs.prompt, "");
        std::fs::write(&doc_path, "---\nbyop:\n  prompt: missing.txt\n---\nReview").unwrap();
        let r = load(&doc_path);
        let e = &r.problems[0];
        assert!(e.message.contains("missing.txt"), "{e:?}");
        assert_eq!(e.position.map(|p| p.line), Some(2), "points at the key");
    }

    #[test]
    fn playbook_choice_and_its_source() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("byop.toml"), "playbook = \"nope.json\"\n").unwrap();
        let doc_path = dir.path().join("r.ai.md");
        std::fs::write(&doc_path, "Review").unwrap();
        let r = load(&doc_path);
        assert_eq!(r.playbook_source, PlaybookSource::Default, "failed to load");
        assert!(
            r.problems[0].message.contains("nope.json"),
            "{:?}",
            r.problems
        );
        std::fs::write(dir.path().join("byop.toml"), "").unwrap();
        let resolver = Resolver::new();
        let again = |r: &Resolver| {
            r.resolve(Request {
                text: "Review".into(),
                path: Some(&doc_path),
                ..Default::default()
            })
            .unwrap()
        };
        assert_eq!(again(&resolver).playbook_source, PlaybookSource::Default);
        std::fs::write(
            dir.path().join("byop.toml"),
            "playbook = \"ai_plugin_observability_v1\"\n",
        )
        .unwrap();
        assert_eq!(
            again(&resolver).playbook_source,
            PlaybookSource::Default,
            "cached until invalidated"
        );
        resolver.invalidate();
        assert_eq!(again(&resolver).playbook_source, PlaybookSource::Config);
    }
}
