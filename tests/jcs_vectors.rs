//! RFC 8785's test vectors (`../shared/corpus/jcs/testdata`): our canonical JSON writer
//! gives the expected output byte for byte, and so does `serde_jcs`, the reference it
//! replaced. Real reports from the corpus canonicalize the same with both.

use std::path::Path;

use byop::model::integrity::canonical_json;

fn vectors() -> Option<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/jcs/testdata");
    dir.join("input").is_dir().then_some(dir)
}

#[test]
fn every_rfc_8785_vector_canonicalizes_byte_for_byte() {
    let Some(dir) = vectors() else {
        eprintln!("RFC 8785 vectors not found next to the repository; skipped");
        return;
    };
    let mut n = 0;
    for entry in std::fs::read_dir(dir.join("input")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap();
        let input: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let expected = std::fs::read(dir.join("output").join(name)).unwrap();
        assert_eq!(
            canonical_json(&input).as_bytes(),
            expected.as_slice(),
            "{}",
            path.display()
        );
        assert_eq!(
            serde_jcs::to_vec(&input).unwrap(),
            expected,
            "serde_jcs too"
        );
        n += 1;
    }
    assert!(n >= 6, "only {n} vectors");
}

#[test]
fn corpus_reports_canonicalize_as_serde_jcs_does() {
    let outputs =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/contract-reviews/outputs");
    let Ok(entries) = std::fs::read_dir(&outputs) else {
        eprintln!("corpus not found; skipped");
        return;
    };
    let playbook = byop::engine::playbook::builtin();
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths.iter().step_by(25) {
        let text = std::fs::read_to_string(path).unwrap();
        let doc = byop::engine::document::Document::parse(text, Some(path)).unwrap();
        let report = byop::engine::runner::run_deterministic(&playbook, &doc);
        assert_eq!(
            canonical_json(&report),
            serde_jcs::to_string(&report).unwrap(),
            "{}",
            path.display()
        );
    }
}
