//! Every input the fuzzers found a crash with (`fuzz/regressions/<target>/`), and a few
//! seeds per target, run through the same target bodies (`byop::fuzzing`) without the
//! fuzzer, so CI keeps them fixed.

use std::path::Path;

/// Seeds that reach the interesting paths of each target.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let example = |name: &str| {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("examples")
                .join(name),
        )
        .unwrap_or_default()
    };
    let s = |t: &str| t.as_bytes().to_vec();
    match target {
        "front_matter" => vec![
            example("nda_review.ai.md"),
            s("---\nbyop:\n  source: x\n---\nbody"),
            s("---\n---"),
            s("---\n: [\n---\n"),
        ],
        "playbook_json" => vec![
            std::fs::read(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("playbooks/ai_plugin_observability_v1.json"),
            )
            .unwrap(),
            s(
                "{\"checks\": [{\"id\": \"c\", \"rules\": {\"kind\": \"pattern\", \"patterns\": [\"(\"]}}]}",
            ),
        ],
        "locator" => vec![
            [
                example("nda_review.ai.md"),
                vec![0xFF],
                s("fully enforceable ... without changes"),
            ]
            .concat(),
            s("a\u{1F600}b\u{FF}\u{1F600}"),
        ],
        "suppressions" => vec![s(
            "<!-- byop-disable a -->\nx\n<!-- byop-enable -->\n<!-- byop-disable-next-line -->\n<!-- byop-disable-file b,c -->",
        )],
        "positions" => vec![s("a\u{1F600}b\r\n\u{e9}\n\n\u{2028}x\r")],
        "incremental_edits" => vec![
            [
                s("a\u{1F600}b\nsecond\r\nthird"),
                vec![0xFF, 0, 1, 1, 3, 1, 3, 2, 0, 2, 0, 2, 5],
            ]
            .concat(),
        ],
        "verdict" => vec![
            s("{\"result\":\"fail\",\"confidence\":2,\"evidence_citations\":[\"x\"]}"),
            s("```json\n{\"result\":\"pass\",\"confidence\":\"0.5\"}\n```"),
        ],
        "grounding" => vec![
            [
                s("## Review\nSection 9.2 provides that \u{201c}the Licensee shall pay within thirty days\u{201d}; the cap is $50,000 until July 1, 2027.\n\n1. Added Section 12(b).\n\n[ADD] 12.1 The Supplier shall notify Acme Corp.\n"),
                vec![0xFF],
                s("9. FEES\n9.2 The Licensee shall pay within thirty (30) days. Liability is capped at $50,000."),
            ]
            .concat(),
            [
                s("> \u{201c}quote \u{2026} of it\u{201d}\n| a | b |\n|---|---|\n| \u{a7} 4 | 5% |"),
                vec![0xFF],
                s("\u{1F600}"),
            ]
            .concat(),
        ],
        "byop_toml" => vec![s("playbook = \"x.json\"\n[evaluator]\nconcurrency = 0\n")],
        "hostile_config" => (0u8..=255)
            .step_by(7)
            .map(|b| [vec![b], s("x: [1, {y: 2}]")].concat())
            .chain([
                vec![255],
                vec![3; 70_000],
                [vec![0], vec![b'['; 70_000]].concat(),
            ])
            .collect(),
        _ => vec![],
    }
}

#[test]
fn every_saved_fuzz_input_and_seed_runs_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut ran = 0;
    for (name, target) in byop::fuzzing::TARGETS {
        for input in seeds(name) {
            target(&input);
            ran += 1;
        }
        let Ok(dir) = std::fs::read_dir(root.join(name)) else {
            continue;
        };
        for f in dir.flatten() {
            if f.file_name() == ".keep" {
                continue;
            }
            let input = std::fs::read(f.path()).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&input));
            assert!(
                outcome.is_ok(),
                "{name}: {} fails again",
                f.path().display()
            );
            ran += 1;
        }
    }
    assert!(ran >= byop::fuzzing::TARGETS.len());
}
