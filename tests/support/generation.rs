//! A PlanProof experiment to generate: four scenarios, two generation variants and the
//! fake server's script for them (shared by the generation tests).

use serde_json::Value;

use super::fake_llm::{Script, Step};
use super::workspace::{Ws, examples};

pub const SCENARIOS: [&str; 4] = [
    "dentist_day",
    "london_overbooked",
    "school_pickup",
    "tokyo_launch",
];

/// A hand-written PlanProof output's body (its front matter removed).
pub fn body(variant: &str, scenario: &str) -> String {
    let p = examples().join(format!("planproof/variants/{variant}/{scenario}.md"));
    let text = std::fs::read_to_string(p).unwrap();
    let rest = text.strip_prefix("---\n").unwrap();
    rest[rest.find("\n---\n").unwrap() + 5..].to_string()
}

pub const NAIVE: &str = "strategy = \"naive\"\ntemplate = \"\"\"Variant A for {{scenario}} at {{current_time}} ({{timezone}})\n{{notes}}\"\"\"\n";
pub const REPAIR: &str = "strategy = \"repair\"\nmodel = \"planner-2\"\ntemperature = 0.2\ntemplate = \"\"\"Variant B for {{scenario}}\n{{notes}}\"\"\"\n";

/// A dataset `exp/` of four PlanProof scenarios and two generation variants.
pub fn dataset(ws: &Ws, variants: &[(&str, &str)]) {
    let scen = ws.path("exp/scenarios");
    std::fs::create_dir_all(&scen).unwrap();
    for s in SCENARIOS {
        let from = examples().join(format!("planproof/scenarios/{s}.md"));
        std::fs::copy(from, scen.join(format!("{s}.md"))).unwrap();
    }
    ws.write("exp/dataset.toml", "playbook = \"planproof_v1\"\n");
    for (name, toml) in variants {
        std::fs::create_dir_all(ws.path(&format!("exp/variants/{name}"))).unwrap();
        ws.write(&format!("exp/variants/{name}/variant.toml"), toml);
    }
}

/// Variant A writes every naive plan (one over a hard stop, one inventing meetings);
/// variant B writes the same naive plans except a good one for london_overbooked, and its
/// repair fixes school_pickup and tokyo_launch but answers dentist_day with the same plan.
pub fn script() -> Script {
    let mut s = Script::default();
    for sc in SCENARIOS {
        let gen_a = vec![Step::Generated {
            text: body("v1_naive", sc),
        }];
        s = s.when(Some("generate"), &format!("Variant A for {sc}"), gen_a);
        let b = if sc == "london_overbooked" {
            "v4_repair"
        } else {
            "v1_naive"
        };
        let gen_b = vec![Step::Generated { text: body(b, sc) }];
        s = s.when(Some("generate"), &format!("Variant B for {sc}"), gen_b);
    }
    for (cue, sc, fixed) in [
        (
            "Finish the Q3 budget summary for Acme",
            "school_pickup",
            true,
        ),
        ("Finalize the press release (90 min)", "tokyo_launch", true),
        (
            "Prepare slides for Thursday's review (180 min)",
            "dentist_day",
            false,
        ),
    ] {
        let text = body(if fixed { "v4_repair" } else { "v1_naive" }, sc);
        s = s.when(
            Some("repair"),
            cue,
            vec![Step::Repaired {
                text,
                append: false,
            }],
        );
    }
    s
}

pub fn run_args(extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = [
        "dataset",
        "run",
        "exp",
        "--format",
        "json",
        "--mode",
        "deterministic",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    a.extend(extra.iter().map(|s| s.to_string()));
    a
}

/// The variant `name` of a comparison's JSON.
pub fn variant<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["variants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["variant"] == name)
        .unwrap_or_else(|| panic!("no variant {name}: {summary}"))
}
