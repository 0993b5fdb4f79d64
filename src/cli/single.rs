//! What the commands share: the document resolved like `check` resolves it (`repair`,
//! `counterfactual`), and the evaluator the flags and `byop.toml` choose (all of them).

use std::path::{Path, PathBuf};

use super::args::{DocInputs, EvaluatorFlags, TrustFlags};
use super::error::CliError;
use crate::evaluator::Evaluator;
use crate::model::Mode;
use crate::workspace::evaluator::{self as choose, ProcessEnv, UserChoices};
use crate::workspace::files::read_text;
use crate::workspace::trust::Policy;
use crate::workspace::{Request, Resolved, Resolver};

/// The flags that name the document's playbook and companions.
pub struct DocFlags<'a> {
    pub file: &'a Path,
    pub inputs: &'a DocInputs,
    pub trust: &'a TrustFlags,
}

/// What front matter may name files in besides its own workspace: the working folder's
/// workspace root — marked by a `byop.toml` or `.git`, or the working folder the user chose,
/// unless that is the home folder or `/` (which hold private files, never a workspace).
pub fn roots(policy: &Policy) -> Vec<PathBuf> {
    let root = policy.root();
    crate::workspace::trust::may_be_root(root, policy.config.marked)
        .then(|| root.to_path_buf())
        .into_iter()
        .collect()
}

/// Resolve `flags.file` inside the workspace; its first problem is the error.
pub fn resolve(flags: DocFlags, cwd: &Path, policy: &Policy) -> Result<Resolved, CliError> {
    let path = flags.file;
    let resolved = Resolver::new().resolve(Request {
        text: read_text(path)?,
        path: Some(path),
        roots: roots(policy),
        cli_playbook: flags
            .inputs
            .playbook
            .clone()
            .map(|p| (p, cwd.to_path_buf())),
        setting_playbook: None,
        source: flags.inputs.source.as_deref(),
        prompt: flags.inputs.prompt.as_deref(),
        locked: policy.locked,
        user_playbooks: flags.trust.allow_playbook.clone(),
        dataset_playbook: None,
    })?;
    if let Some(p) = resolved.problems.first() {
        return Err(CliError(format!("{}: {}", path.display(), p.message)));
    }
    Ok(resolved)
}

fn resolve_evaluator(flags: &EvaluatorFlags, workspace: &Policy) -> choose::Resolved {
    let user = UserChoices {
        provider: flags.provider,
        model: flags.model.clone(),
        trust_workspace_evaluator: flags.trust_workspace_evaluator,
        ..Default::default()
    };
    choose::resolve_evaluator(workspace, &user, &ProcessEnv)
}

/// The evaluator for a batch run in `mode` (`check`, `dataset`). Screening or full mode asked
/// for explicitly without an evaluator is an error, and so is the default mode in locked mode:
/// falling back to local checks would pass a gate unevaluated. Deterministic mode needs none (and its notices are not printed).
pub fn batch_evaluator(
    flags: &EvaluatorFlags,
    mode: Option<Mode>,
    workspace: &Policy,
) -> Result<Option<Evaluator>, CliError> {
    let resolved = resolve_evaluator(flags, workspace);
    if let (Some(mode @ (Mode::Screening | Mode::Full)), Some(why)) = (mode, &resolved.missing_key)
    {
        return Err(CliError(format!(
            "--mode {} needs an evaluator: {why}",
            mode.as_str()
        )));
    }
    // A locked (CI) run falls back to local checks only when asked to: a pull request that
    // gets no key (a fork's) must not pass the gate on local checks alone.
    if let (None, true, Some(why)) = (mode, workspace.locked, &resolved.missing_key) {
        return Err(CliError(format!(
            "locked mode needs an evaluator for the default screening mode: {why}; give --mode deterministic to run the local checks only"
        )));
    }
    let wants_evaluator = mode != Some(Mode::Deterministic);
    // A missing key is said once by the run itself ("ran deterministic checks only").
    for n in resolved.notices.iter().filter(|_| wants_evaluator) {
        crate::render::terminal::notice(n);
    }
    match (wants_evaluator, resolved.settings) {
        (true, Some(s)) => Ok(Some(
            Evaluator::new(s).map_err(|e| CliError(format!("evaluator: {e}")))?,
        )),
        _ => Ok(None),
    }
}

/// The evaluator chosen by the flags and `byop.toml` (its notices printed), or why there is none.
pub fn evaluator(
    flags: &EvaluatorFlags,
    workspace: &Policy,
) -> Result<Result<Evaluator, Option<String>>, CliError> {
    let resolved = resolve_evaluator(flags, workspace);
    for n in &resolved.notices {
        crate::render::terminal::notice(n);
    }
    match resolved.settings {
        Some(s) => Ok(Ok(
            Evaluator::new(s).map_err(|e| CliError(format!("evaluator: {e}")))?
        )),
        None => Ok(Err(resolved.missing_key)),
    }
}
