//! One document resolver for the CLI and every language-server path: text → document
//! (front matter, companions) → workspace config → playbook. Configs and playbooks
//! are cached; `invalidate` drops them when `byop.toml` or a playbook file changes.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use dashmap::DashMap;

use super::boundary::{Boundary, read_bounded, user_file};
use super::config::{Config, ConfigError};
use super::trust::{self, Policy};
use crate::engine::document::{
    Companion, CompanionRole, CompanionText, Document, DocumentError, decode,
};
use crate::engine::playbook::{self, LoadedPlaybook};
use crate::model::Position;

pub use crate::model::PlaybookSource;

/// What to resolve, and what the user chose over the workspace.
#[derive(Debug, Clone, Default)]
pub struct Request<'a> {
    pub text: String,
    pub path: Option<&'a Path>,
    /// The workspace folders the user opened or works in: what the document's front matter
    /// may name files in (besides the folder of its own `byop.toml` / `.git`).
    pub roots: Vec<PathBuf>,
    /// A playbook given on the command line, relative to the folder given with it.
    pub cli_playbook: Option<(String, PathBuf)>,
    /// The editor setting, relative to the workspace root.
    pub setting_playbook: Option<String>,
    /// Companions given on the command line, over the front matter's.
    pub source: Option<&'a Path>,
    pub prompt: Option<&'a Path>,
    /// Locked mode: the workspace and the document choose no rules (see `trust`).
    pub locked: bool,
    /// Playbook files the user allows a document's front matter to request.
    pub user_playbooks: Vec<PathBuf>,
    /// A `dataset.toml` `playbook` (relative to its folder): as untrusted as `byop.toml`'s.
    pub dataset_playbook: Option<(String, PathBuf)>,
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
    pub locked: bool,
    /// Settings of the workspace or the document the trust model ignored, and why.
    pub notices: Vec<String>,
}

#[derive(Default)]
pub struct Resolver {
    /// By folder the discovery started from.
    configs: DashMap<PathBuf, Result<Arc<Config>, ConfigError>>,
    /// By (spec, folder it is relative to).
    playbooks: DashMap<(String, PathBuf), Result<LoadedPlaybook, String>>,
    /// Companion texts by real path, for a batch only (see [`Resolver::for_batch`]).
    companions: Option<DashMap<PathBuf, Arc<CompanionText>>>,
}

impl Resolver {
    pub fn new() -> Self {
        Self::default()
    }

    /// A resolver for one batch of documents read at one moment (a `byop check` run):
    /// a companion file many documents name is read once and its derived data shared.
    /// Not for the language server, where a companion may change between two requests.
    pub fn for_batch() -> Self {
        Resolver {
            companions: Some(DashMap::new()),
            ..Self::default()
        }
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
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_default();
        self.configs
            .entry(start.clone())
            .or_insert_with(|| Config::discover(&start).map(Arc::new))
            .clone()
    }

    /// A built-in id or a path relative to `base`, cached; `ID@sha256:…` pins its logic hash.
    pub fn playbook(&self, spec: &str, base: &Path) -> Result<LoadedPlaybook, String> {
        let (id, pin) = trust::split_pin(spec);
        let loaded = self
            .playbooks
            .entry((id.to_string(), base.to_path_buf()))
            .or_insert_with(|| playbook::resolve(id, base))
            .clone()?;
        trust::check_pin(id, pin, &loaded.logic_hash)?;
        Ok(loaded)
    }

    /// Parse, attach companions, choose the playbook. Only an unparseable document is an
    /// error; everything else that fails is a `Problem` beside a usable result.
    pub fn resolve(&self, req: Request) -> Result<Resolved, DocumentError> {
        let mut doc = Document::parse(req.text, req.path)?;
        let mut problems = Vec::new();
        // A document that is no file (an editor's `untitled:` or `http:` buffer) gets no
        // file-system access: no byop.toml, no companions, no playbook files.
        let (config, mut roots) = match req.path {
            Some(_) => (self.config_for(req.path), req.roots),
            None => (Ok(Arc::new(Config::default())), Vec::new()),
        };
        let config = config.unwrap_or_else(|e| {
            problems.push(Problem {
                kind: ProblemKind::Config,
                message: e.0,
                position: None,
            });
            Arc::new(Config::default())
        });
        let policy = Policy::new(config.clone(), req.locked);
        let mut notices = policy.notices.clone();
        notices.extend(trust::front_matter_as_of(
            &mut doc.front_matter.as_of,
            req.locked,
        ));
        roots.extend(config.marked.then(|| config.root.clone()));
        let own_folder = doc
            .path
            .as_deref()
            .and_then(|p| std::path::absolute(p).ok())
            .and_then(|p| p.parent().map(Path::to_path_buf));
        let boundary = match own_folder {
            // No workspace above the document: its own folder's files, not its subfolders.
            Some(dir) if roots.is_empty() => Boundary::new([]).with_flat(&dir),
            _ => Boundary::new(roots),
        };
        let read = |real: &Path| self.read_companion(real);
        attach_companions(
            &mut doc,
            &boundary,
            (req.source, req.prompt),
            &read,
            &mut problems,
        );
        doc.allowed_origins = policy.allowed_origins.clone();
        let choices = Choices {
            cli: req.cli_playbook,
            setting: req.setting_playbook,
            dataset: req.dataset_playbook,
            user_playbooks: req.user_playbooks,
        };
        let (playbook, playbook_source) = self.choose_playbook(
            &doc,
            &policy,
            &boundary,
            choices,
            (&mut problems, &mut notices),
        );
        Ok(Resolved {
            doc,
            playbook,
            playbook_source,
            config,
            problems,
            locked: req.locked,
            notices,
        })
    }

    /// `--playbook` › editor setting › `dataset.toml` › `byop.toml` › front matter ›
    /// built-in: the user's choice wins over the workspace's, and both over the document's.
    /// The document may only request an allowed playbook (see `Policy`); in locked mode the
    /// workspace chooses none and a front-matter file is ignored with a notice. A playbook
    /// path from the workspace or the document must stay inside the workspace. One that
    /// cannot load is a problem, and the built-in playbook is used.
    fn choose_playbook(
        &self,
        doc: &Document,
        policy: &Policy,
        boundary: &Boundary,
        choices: Choices,
        (problems, notices): (&mut Vec<Problem>, &mut Vec<String>),
    ) -> (LoadedPlaybook, PlaybookSource) {
        let config = &policy.config;
        let doc_dir = doc
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_else(|| config.root.clone());
        let locked = policy.locked;
        if locked && choices.dataset.is_some() {
            notices.push("ignored the dataset.toml playbook: locked mode".into());
        }
        let fm_position = || Some(doc.position(front_matter_key(doc, "playbook")));
        let front_matter = || {
            let fm = doc.front_matter.playbook.clone()?;
            match policy.front_matter_playbook(&fm, &doc_dir, &choices.user_playbooks) {
                Ok(()) => Some(((fm, doc_dir.clone()), PlaybookSource::FrontMatter)),
                Err(why) if locked => {
                    notices.push(why);
                    None
                }
                Err(why) => {
                    problems.push(Problem {
                        kind: ProblemKind::Playbook,
                        message: format!("playbook `{fm}` not loaded: {why}"),
                        position: fm_position(),
                    });
                    None
                }
            }
        };
        let choice = choices
            .cli
            .map(|c| (c, PlaybookSource::Cli))
            .or_else(|| {
                let s = choices.setting?;
                Some(((s, config.root.clone()), PlaybookSource::Settings))
            })
            .or_else(|| Some((choices.dataset.filter(|_| !locked)?, PlaybookSource::Config)))
            .or_else(|| Some((policy.playbook.clone()?, PlaybookSource::Config)))
            .or_else(front_matter);
        let Some(((spec, base), source)) = choice else {
            return (playbook::builtin(), PlaybookSource::Default);
        };
        let untrusted = matches!(source, PlaybookSource::Config | PlaybookSource::FrontMatter);
        let id = trust::split_pin(&spec).0;
        let confined = if untrusted && !playbook::builtin_ids().contains(&id) {
            boundary.confined(&base.join(id)).map(|_| ())
        } else {
            Ok(())
        };
        match confined.and_then(|()| self.playbook(&spec, &base)) {
            Ok(pb) => (pb, source),
            Err(e) => {
                let position = (source == PlaybookSource::FrontMatter)
                    .then(fm_position)
                    .flatten();
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

fn read_companion(path: &Path) -> Result<String, String> {
    let bytes = read_bounded(path)?;
    decode(&path.display().to_string(), bytes).map_err(|e| e.message)
}

impl Resolver {
    /// A companion's text by its real path: read each time, or once per batch.
    fn read_companion(&self, real: &Path) -> Result<Arc<CompanionText>, String> {
        let read = || read_companion(real).map(|t| Arc::new(CompanionText::new(t)));
        match &self.companions {
            None => read(),
            Some(cache) => cache
                .entry(real.to_path_buf())
                .or_try_insert_with(read)
                .map(|e| e.value().clone()),
        }
    }
}

fn front_matter_key(doc: &Document, key: &str) -> usize {
    crate::engine::document::front_matter::key_offset(&doc.text, key)
}

/// The playbooks the user chose (over the workspace's and the document's), the
/// dataset's, and the files the user allows a document to request.
struct Choices {
    cli: Option<(String, PathBuf)>,
    setting: Option<String>,
    dataset: Option<(String, PathBuf)>,
    user_playbooks: Vec<PathBuf>,
}

/// Companions: explicit paths (command line) over the front matter's, which are
/// relative to the document and must stay inside the workspace.
fn attach_companions(
    doc: &mut Document,
    boundary: &Boundary,
    (source, prompt): (Option<&Path>, Option<&Path>),
    read_companion: &dyn Fn(&Path) -> Result<Arc<CompanionText>, String>,
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
        (
            CompanionRole::Evidence,
            None,
            doc.front_matter.evidence.clone(),
            "evidence",
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
            CompanionRole::Evidence => "evidence set",
        };
        let allowed = match over {
            Some(_) => user_file(&path),
            None => boundary.confined(&path),
        };
        let read = allowed
            .and_then(|real| trust::not_the_document(doc.path.as_deref(), &real).map(|()| real))
            .and_then(|real| read_companion(&real));
        match read {
            Ok(text) => doc.attach(role, Companion::shared(path, text)),
            Err(e) => {
                doc.evidence_unreadable |= role == CompanionRole::Evidence;
                problems.push(Problem {
                    kind: ProblemKind::Companion,
                    message: format!("cannot read {what} `{}`: {e}", path.display()),
                    position: over
                        .is_none()
                        .then(|| doc.position(front_matter_key(doc, key))),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(path: &Path) -> Resolved {
        let text = crate::workspace::files::read_text(path).unwrap();
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
        // A repository: the document may name files in its subfolders.
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/nda.txt"), "  NDA text\r\n").unwrap();
        let doc_path = dir.path().join("r.ai.md");
        std::fs::write(&doc_path, "---\nbyop:\n  source: src/nda.txt\n---\nReview").unwrap();
        let d = load(&doc_path).doc;
        assert_eq!(&*d.inputs.source_document, "NDA text");
        assert_eq!(&*d.inputs.prompt, "");
        std::fs::write(&doc_path, "---\nbyop:\n  prompt: missing.txt\n---\nReview").unwrap();
        let r = load(&doc_path);
        let e = &r.problems[0];
        assert!(e.message.contains("missing.txt"), "{e:?}");
        assert_eq!(e.position.map(|p| p.line), Some(2), "points at the key");
    }

    #[test]
    fn a_batch_reads_a_shared_companion_once_and_the_server_rereads_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("nda.txt"), "First text").unwrap();
        let req = |name: &str, source: &str| {
            let path = dir.path().join(name);
            let text = format!("---\nbyop:\n  source: {source}\n---\nReview");
            std::fs::write(&path, &text).unwrap();
            (path, text)
        };
        // Two documents name the same file by different relative paths.
        let (p1, t1) = req("r1.ai.md", "nda.txt");
        let (p2, t2) = req("a/r2.ai.md", "../nda.txt");
        let resolve = |r: &Resolver, p: &Path, t: &str| {
            r.resolve(Request {
                text: t.to_string(),
                path: Some(p),
                roots: vec![dir.path().to_path_buf()],
                ..Default::default()
            })
            .unwrap()
            .doc
        };
        let batch = Resolver::for_batch();
        let d1 = resolve(&batch, &p1, &t1);
        std::fs::write(dir.path().join("nda.txt"), "Second text").unwrap();
        let d2 = resolve(&batch, &p2, &t2);
        let (s1, s2) = (d1.source.unwrap(), d2.source.unwrap());
        assert_eq!((s1.text(), s2.text()), ("First text", "First text"));
        assert!(s2.path.ends_with("a/../nda.txt"), "{:?}", s2.path);
        // The language server's resolver reads the file as it is now.
        let server = Resolver::new();
        assert_eq!(
            &*resolve(&server, &p1, &t1).inputs.source_document,
            "Second text"
        );
        std::fs::write(dir.path().join("nda.txt"), "Third text").unwrap();
        assert_eq!(
            &*resolve(&server, &p2, &t2).inputs.source_document,
            "Third text"
        );
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
