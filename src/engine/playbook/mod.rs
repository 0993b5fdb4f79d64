//! Loading playbooks: built-in ids, files, and the first problem with file:line:column.
//!
//! A playbook is data (`model::Playbook`). Loading validates it completely and reports the first
//! problem with file, line, column and the offending field, so a broken
//! playbook is an error message, never a crash.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::rules::CompiledRule;
use crate::model::Playbook;
use crate::model::text::{Encoding, LineIndex, Position};

mod schema;
mod validate;
mod vocabulary;

pub use schema::{SCHEMA, schema_errors};

pub const BUILTIN_ID: &str = "ai_plugin_observability_v1";
const BUILTIN_JSON: &str = include_str!("../../../playbooks/ai_plugin_observability_v1.json");
/// The PlanProof contract (docs/contracts.md, Plan validation): plan validators and the `validation` object.
pub const PLANPROOF_ID: &str = "planproof_v1";
const PLANPROOF_JSON: &str = include_str!("../../../playbooks/planproof_v1.json");
/// The second built-in playbook: deterministic grounding and evidence checks.
pub const EVIDENCE_ID: &str = "evidence_contract_v1";
const EVIDENCE_JSON: &str = include_str!("../../../playbooks/evidence_contract_v1.json");

/// A loaded playbook and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedPlaybook {
    pub playbook: Arc<Playbook>,
    /// `rules` compiled once, index-aligned with `playbook.checks`.
    pub compiled: Arc<Vec<Option<Arc<dyn CompiledRule>>>>,
    /// `None` for the built-in playbook.
    pub path: Option<PathBuf>,
    pub logic_hash: String,
}

/// A problem in a playbook file, pointing at the offending place.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{}:{}: {message}", .position.line + 1, .position.character + 1)]
pub struct PlaybookError {
    pub file: String,
    /// 0-based; `Display` shows 1-based line:column like compilers do.
    pub position: Position,
    pub end: Position,
    pub message: String,
}

/// The built-in playbook, parsed and compiled once per process.
pub fn builtin() -> LoadedPlaybook {
    static BUILTIN: std::sync::OnceLock<LoadedPlaybook> = std::sync::OnceLock::new();
    BUILTIN
        .get_or_init(|| {
            let (pb, compiled) = parse_compiled(BUILTIN_JSON, "<builtin>")
                .expect("built-in playbook is valid (tested)");
            loaded(pb, compiled, None)
        })
        .clone()
}

/// The evidence-contract playbook, parsed and compiled once per process.
pub fn evidence_contract() -> LoadedPlaybook {
    static EVIDENCE: std::sync::OnceLock<LoadedPlaybook> = std::sync::OnceLock::new();
    EVIDENCE
        .get_or_init(|| {
            let (pb, compiled) = parse_compiled(EVIDENCE_JSON, "<builtin:evidence_contract_v1>")
                .expect("built-in evidence playbook is valid (tested)");
            loaded(pb, compiled, None)
        })
        .clone()
}

impl LoadedPlaybook {
    /// A playbook already parsed and validated (`parse`), with no file behind it.
    pub fn from_playbook(pb: Playbook) -> LoadedPlaybook {
        // `parse` validated every rule, so compiling again cannot fail.
        let compiled = pb
            .checks
            .iter()
            .map(|c| {
                c.rules.as_ref().and_then(|r| {
                    vocabulary::resolve(r, &pb.vocabularies)
                        .and_then(|r| crate::engine::rules::compile(&r))
                        .ok()
                })
            })
            .collect();
        loaded(pb, compiled, None)
    }
}

fn loaded(pb: Playbook, compiled: validate::Compiled, path: Option<PathBuf>) -> LoadedPlaybook {
    let logic_hash = crate::model::integrity::playbook_logic_hash(&pb);
    LoadedPlaybook {
        playbook: Arc::new(pb),
        compiled: Arc::new(compiled),
        path,
        logic_hash,
    }
}

/// Names of the playbooks shipped in the binary.
pub fn builtin_ids() -> &'static [&'static str] {
    &[BUILTIN_ID, EVIDENCE_ID, PLANPROOF_ID]
}

/// The JSON text of a built-in playbook.
pub fn builtin_text(id: &str) -> Option<&'static str> {
    match id {
        BUILTIN_ID => Some(BUILTIN_JSON),
        EVIDENCE_ID => Some(EVIDENCE_JSON),
        PLANPROOF_ID => Some(PLANPROOF_JSON),
        _ => None,
    }
}

/// A built-in playbook by id, parsed and compiled once per process.
pub fn builtin_by_id(id: &str) -> Option<LoadedPlaybook> {
    static PLANPROOF: std::sync::OnceLock<LoadedPlaybook> = std::sync::OnceLock::new();
    match id {
        BUILTIN_ID => Some(builtin()),
        EVIDENCE_ID => Some(evidence_contract()),
        PLANPROOF_ID => Some(
            PLANPROOF
                .get_or_init(|| {
                    let (pb, compiled) = parse_compiled(PLANPROOF_JSON, "<builtin planproof_v1>")
                        .expect("built-in playbook is valid (tested)");
                    loaded(pb, compiled, None)
                })
                .clone(),
        ),
        _ => None,
    }
}

/// Resolve `ID|PATH`: a built-in id, else a path relative to `base_dir`.
pub fn resolve(spec: &str, base_dir: &Path) -> Result<LoadedPlaybook, String> {
    if let Some(pb) = builtin_by_id(spec) {
        return Ok(pb);
    }
    if spec == EVIDENCE_ID {
        return Ok(evidence_contract());
    }
    let path = base_dir.join(spec);
    if !path.exists() && !spec.ends_with(".json") && !spec.contains('/') {
        return Err(format!(
            "unknown playbook `{spec}`: not a built-in id ({}) and no such file {}",
            builtin_ids().join(", "),
            path.display()
        ));
    }
    let loaded = load_file(&path).map_err(|e| e.to_string())?;
    impostor(&loaded)?;
    Ok(loaded)
}

/// A file playbook may not carry a built-in's id with other logic: a report naming the
/// built-in id would then describe checks that never ran.
pub fn impostor(loaded: &LoadedPlaybook) -> Result<(), String> {
    match builtin_by_id(&loaded.playbook.id) {
        Some(b) if b.logic_hash != loaded.logic_hash => Err(format!(
            "{} carries the built-in playbook id `{}` with different logic (its logic hash {}, the built-in's {})",
            loaded
                .path
                .as_ref()
                .map_or_else(|| "the playbook".to_string(), |p| p.display().to_string()),
            loaded.playbook.id,
            loaded.logic_hash,
            b.logic_hash
        )),
        _ => Ok(()),
    }
}

pub fn load_file(path: &Path) -> Result<LoadedPlaybook, PlaybookError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| PlaybookError {
        file: file.clone(),
        position: Position::default(),
        end: Position::default(),
        message: format!("cannot read playbook: {e}"),
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let (pos, end) = at_byte(
            &String::from_utf8_lossy(e.as_bytes()),
            e.utf8_error().valid_up_to(),
        );
        PlaybookError {
            file: file.clone(),
            position: pos,
            end,
            message: "playbook is not valid UTF-8".into(),
        }
    })?;
    let (pb, compiled) = parse_compiled(&text, &file)?;
    Ok(loaded(pb, compiled, Some(path.to_path_buf())))
}

/// Parse and validate playbook text. `file` only labels errors.
pub fn parse(text: &str, file: &str) -> Result<Playbook, PlaybookError> {
    parse_compiled(text, file).map(|(pb, _)| pb)
}

/// [`parse`], keeping the rules validation compiled.
fn parse_compiled(text: &str, file: &str) -> Result<(Playbook, validate::Compiled), PlaybookError> {
    let err_at = |offset: usize, end_offset: Option<usize>, message: String| {
        error_at(text, file, offset, end_offset, message)
    };
    if text.trim().is_empty() {
        return Err(err_at(0, None, "playbook file is empty".into()));
    }
    let pb: Playbook = serde_json::from_str(text).map_err(|e| {
        // serde_json reports 1-based line/column; point at that character.
        let line = e.line().saturating_sub(1);
        let idx = LineIndex::new(text);
        let offset = if e.line() == 0 {
            0
        } else {
            idx.line_start(line as u32) + e.column().saturating_sub(1)
        };
        let message = describe_serde_error(&e);
        err_at(offset.min(text.len()), None, message)
    })?;
    let compiled = validate::validate(&pb).map_err(|(path, message)| {
        let (start, end) = validate::locate_json_path(text, &path).unwrap_or((0, 0));
        err_at(start, Some(end), message)
    })?;
    Ok((pb, compiled))
}

/// An error in `file` from byte `offset` (to `end_offset`) of its `text`.
fn error_at(
    text: &str,
    file: &str,
    offset: usize,
    end_offset: Option<usize>,
    message: String,
) -> PlaybookError {
    let (position, end) = at_byte(text, offset);
    let end = end_offset.map(|e| at_byte(text, e).0).unwrap_or(end);
    PlaybookError {
        file: file.to_string(),
        position,
        end,
        message,
    }
}

fn describe_serde_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    // Drop serde_json's own " at line X column Y" suffix: we print our own position.
    let msg = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("invalid JSON: {msg}")
        }
        _ => msg,
    }
}

fn at_byte(text: &str, offset: usize) -> (Position, Position) {
    let idx = LineIndex::new(text);
    let p = idx.position(text, offset, Encoding::Utf16);
    (p, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal(check: &str) -> String {
        format!(r#"{{"id":"t","version":"1","checks":[{check}]}}"#)
    }
    const OK_CHECK: &str = r#"{"id":"a","severity":"high","question":"Q?","detection_method":{"type":"semantic","instructions":"I"}}"#;

    #[test]
    fn builtin_playbook_loads_with_six_checks_and_version() {
        let b = builtin();
        assert_eq!(b.playbook.id, BUILTIN_ID);
        assert_eq!(b.playbook.version, "1.1.0");
        let ids: Vec<_> = b.playbook.checks.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "assumption_disclosure",
                "certainty_language",
                "escalation_signal",
                "unchecked_areas_disclosure",
                "run_variance",
                "drift_over_time_support"
            ]
        );
        assert!(b.logic_hash.starts_with("sha256:"));
    }

    #[test]
    fn planproof_playbook_is_built_in_and_resolvable() {
        let p = builtin_by_id(PLANPROOF_ID).expect("built in");
        let kinds: Vec<_> = p
            .playbook
            .checks
            .iter()
            .map(|c| c.rules.as_ref().unwrap().kind.as_str())
            .collect();
        assert_eq!(
            kinds,
            [
                "plan_schema",
                "time_budget",
                "constraints",
                "grounded_entities",
                "coverage",
                "feasibility"
            ]
        );
        assert!(p.compiled.iter().all(Option::is_some));
        let r = resolve(PLANPROOF_ID, Path::new("/nonexistent")).unwrap();
        assert_eq!(r.logic_hash, p.logic_hash);
        assert!(builtin_ids().contains(&PLANPROOF_ID));
    }

    #[test]
    fn unknown_field_names_field_line_and_column() {
        let text =
            "{\n  \"id\": \"t\",\n  \"version\": \"1\",\n  \"colour\": 1,\n  \"checks\": []\n}";
        let e = parse(text, "p.json").unwrap_err();
        assert!(e.message.contains("unknown field `colour`"), "{e}");
        assert_eq!(e.position.line, 3, "{e}");
        assert!(e.to_string().starts_with("p.json:4:"), "{e}");
    }

    #[test]
    fn bad_severity_is_reported_with_expected_values() {
        let text = minimal(&OK_CHECK.replace("\"high\"", "\"critical\""));
        let e = parse(&text, "p.json").unwrap_err();
        assert!(e.message.contains("unknown variant `critical`"), "{e}");
        assert!(e.message.contains("high"), "{e}");
    }

    #[test]
    fn bad_detection_type_is_reported() {
        let text = minimal(&OK_CHECK.replace("\"semantic\"", "\"magic\""));
        let e = parse(&text, "p.json").unwrap_err();
        assert!(e.message.contains("unknown variant `magic`"), "{e}");
    }

    #[test]
    fn missing_question_is_reported() {
        let text = minimal(&OK_CHECK.replace("\"question\":\"Q?\",", ""));
        let e = parse(&text, "p.json").unwrap_err();
        assert!(e.message.contains("missing field `question`"), "{e}");
    }

    #[test]
    fn duplicate_check_id_points_at_the_second_id() {
        let text =
            format!("{{\"id\":\"t\",\"version\":\"1\",\"checks\":[\n{OK_CHECK},\n{OK_CHECK}\n]}}");
        let e = parse(&text, "p.json").unwrap_err();
        assert!(e.message.contains("duplicate check id `a`"), "{e}");
        assert_eq!(e.position.line, 2, "{e}");
        let col = e.position.character as usize;
        assert_eq!(&OK_CHECK[col..col + 3], "\"a\"");
    }

    #[test]
    fn rules_compile_side_by_side_and_the_first_error_in_check_order_is_reported() {
        let with_rule = |id: &str, pattern: &str| {
            OK_CHECK.replace("\"a\"", &format!("\"{id}\"")).replace(
                "\"detection_method\"",
                &format!(
                    "\"rules\":{{\"kind\":\"pattern\",\"patterns\":[{}],\"match_means\":\"fail\"}},\"detection_method\"",
                    serde_json::to_string(pattern).unwrap()
                ),
            )
        };
        let playbook = |checks: &[String]| minimal(&checks.join(","));
        let good: Vec<String> = (0..6).map(|i| with_rule(&format!("c{i}"), "ok")).collect();
        assert!(parse(&playbook(&good), "p.json").is_ok());
        // A bad rule in check 2 and another in check 4: check 2 is named, every time.
        let mut bad = good.clone();
        bad[2] = with_rule("c2", "(unclosed");
        bad[4] = with_rule("c4", "[z-a]");
        for _ in 0..5 {
            let e = parse(&playbook(&bad), "p.json").unwrap_err();
            assert!(e.message.contains("check `c2`"), "{e}");
        }
        // A bad rule before a duplicate id is reported first; a duplicate before a bad
        // rule, likewise.
        let mut dup = bad.clone();
        dup[3] = with_rule("c0", "ok");
        let e = parse(&playbook(&dup), "p.json").unwrap_err();
        assert!(e.message.contains("check `c2`"), "{e}");
        dup[1] = with_rule("c0", "ok");
        let e = parse(&playbook(&dup), "p.json").unwrap_err();
        assert!(e.message.contains("duplicate check id `c0`"), "{e}");
    }

    #[test]
    fn syntax_error_and_empty_file_are_clear() {
        let e = parse("{\"id\": \"t\",,}", "p.json").unwrap_err();
        assert!(e.message.starts_with("invalid JSON"), "{e}");
        let e = parse("  \n", "p.json").unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
    }

    #[test]
    fn result_states_must_allow_indeterminate() {
        let check = OK_CHECK.replace(
            "\"question\"",
            "\"result_states\":[\"pass\",\"fail\"],\"question\"",
        );
        let e = parse(&minimal(&check), "p.json").unwrap_err();
        assert!(e.message.contains("indeterminate"), "{e}");
    }

    #[test]
    fn invalid_utf8_file_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("bad.json");
        std::fs::write(&p, b"{\"id\": \"\xff\"}").unwrap();
        let e = load_file(&p).unwrap_err();
        assert!(e.message.contains("UTF-8"), "{e}");
    }

    #[test]
    fn volatile_metadata_does_not_change_the_logic_hash_but_checks_do() {
        let mut pb = builtin().playbook.as_ref().clone();
        let h0 = crate::model::integrity::playbook_logic_hash(&pb);
        pb.metadata.insert("created_at".into(), "2030-01-01".into());
        pb.metadata.insert("updated_at".into(), "2031-01-01".into());
        assert_eq!(crate::model::integrity::playbook_logic_hash(&pb), h0);
        pb.checks[0].question.push('!');
        assert_ne!(crate::model::integrity::playbook_logic_hash(&pb), h0);
    }
}
