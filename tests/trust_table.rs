//! Walks the table that opens `docs/security.md`: for every row, a hostile value from the
//! repository (byop.toml, front matter) is ignored with a notice or refused (exit 2) by the
//! built binary; a row the repository cannot even express names a test that exists.

mod support;

use support::workspace::{Ws, json, stderr};

enum Expect {
    /// Exit 2 and stderr naming this.
    Refused(&'static str),
    /// Not an error; stderr says this (a notice), and the report field holds this value.
    Ignored(&'static str, &'static str, &'static str),
    /// Proved by this test function elsewhere in `tests/`.
    ProvedBy(&'static str),
}

struct Case {
    key: &'static str,
    byop_toml: &'static str,
    front_matter: &'static str,
    args: &'static [&'static str],
    expect: Expect,
}

const PB: &str = r#"{"id":"lenient","version":"1","checks":[{"id":"anything","severity":"low",
  "question":"Anything?","detection_method":{"type":"deterministic","instructions":"I"},
  "rules":{"kind":"pattern","patterns":["."],"match_means":"pass"}}]}"#;

const CASES: &[Case] = &[
    Case {
        key: "as_of",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("locked_mode_ignores_the_front_matters_as_of"),
    },
    Case {
        key: "document_path",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "locked_mode_refuses_document_paths_that_are_links_or_lead_outside",
        ),
    },
    Case {
        key: "source_needed",
        byop_toml: "",
        front_matter: "",
        args: &["--playbook", "evidence_contract_v1"],
        expect: Expect::Refused("no `source` companion"),
    },
    Case {
        key: "source_empty",
        byop_toml: "",
        front_matter: "byop:\n  source: empty.txt\n",
        args: &["--playbook", "evidence_contract_v1"],
        expect: Expect::Refused("empty.txt is empty"),
    },
    Case {
        key: "prompt_quotes",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_prompt_file_holding_an_invented_quote_does_not_pass_the_gate"),
    },
    Case {
        key: "front_matter_body",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "text_only_in_front_matter_or_after_a_dots_line_is_not_passed_over",
        ),
    },
    Case {
        key: "companion_self",
        byop_toml: "",
        front_matter: "byop:\n  source: ./doc.ai.md\n",
        args: &[],
        expect: Expect::Refused("this document itself"),
    },
    Case {
        key: "store_link",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_committed_byop_link_cannot_move_the_default_store"),
    },
    Case {
        key: "dataset_runs",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_dataset_run_never_writes_through_a_committed_link"),
    },
    Case {
        key: "playbook",
        byop_toml: "playbook = \"pb.json\"\n",
        front_matter: "",
        args: &["--locked"],
        expect: Expect::Ignored("ignored playbook", "playbook_source", "default"),
    },
    Case {
        key: "allowed_playbooks",
        byop_toml: "allowed_playbooks = [\"pb.json\"]\n",
        front_matter: "byop:\n  playbook: pb.json\n",
        args: &["--locked"],
        expect: Expect::Ignored("ignored allowed_playbooks", "playbook_source", "default"),
    },
    Case {
        key: "builtin_id",
        byop_toml: "",
        front_matter: "",
        args: &["--playbook", "impostor.json"],
        expect: Expect::Refused("carries the built-in playbook id"),
    },
    Case {
        key: "locked",
        byop_toml: "locked = false\n",
        front_matter: "",
        args: &[],
        expect: Expect::Refused("unknown field"),
    },
    Case {
        key: "canary",
        byop_toml: "[evaluator]\ncanary = false\n",
        front_matter: "",
        args: &[],
        expect: Expect::Ignored("ignored evaluator.canary = false", "locked", "null"),
    },
    Case {
        key: "cache",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "the_workspace_cannot_switch_canaries_off_and_full_mode_never_reuses_unguarded_answers",
        ),
    },
    Case {
        key: "runs",
        byop_toml: "[evaluator]\nruns = 2\n",
        front_matter: "",
        args: &[],
        expect: Expect::Ignored("ignored evaluator.runs", "locked", "null"),
    },
    Case {
        key: "evaluator.base_url",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("the_key_is_never_written_and_a_workspace_cannot_redirect_it"),
    },
    Case {
        key: "evaluator.model",
        byop_toml: "[evaluator]\nmodel = \"tiny\"\n",
        front_matter: "",
        args: &["--locked"],
        expect: Expect::Ignored("ignored evaluator.model", "locked", "true"),
    },
    Case {
        key: "evaluator.limits",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("auth_errors_quota_and_outages_exit_3_whatever_fail_on_says"),
    },
    Case {
        key: "telemetry.endpoint",
        byop_toml: "[telemetry]\nendpoint = \"http://127.0.0.1:9\"\n",
        front_matter: "",
        args: &[],
        expect: Expect::Ignored("only you choose where traces go", "locked", "null"),
    },
    Case {
        key: "telemetry.include_text",
        byop_toml: "[telemetry]\ninclude_text = true\n",
        front_matter: "",
        args: &[],
        expect: Expect::Ignored("ignored telemetry.include_text", "locked", "null"),
    },
    Case {
        key: "include",
        byop_toml: "include = [\"none/*.md\"]\n",
        front_matter: "",
        args: &["--locked"],
        expect: Expect::Ignored("ignored include", "locked", "true"),
    },
    Case {
        key: "evidence.allowed_origins",
        byop_toml: "[evidence]\nallowed_origins = [\"anything\"]\n",
        front_matter: "",
        args: &["--locked"],
        expect: Expect::Ignored("ignored evidence.allowed_origins", "locked", "true"),
    },
    Case {
        key: "db",
        byop_toml: "db = \"../../elsewhere.db\"\n",
        front_matter: "",
        args: &[],
        expect: Expect::Refused("outside the workspace"),
    },
    Case {
        key: "store_files",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "stores_and_their_key_are_created_private_and_a_shared_key_is_refused",
        ),
    },
    Case {
        key: "store_url",
        byop_toml: "db = \"postgres://attacker.invalid/db\"\n",
        front_matter: "",
        args: &[],
        expect: Expect::Refused("names a URL"),
    },
    Case {
        key: "store_key",
        byop_toml: "store_key = \"00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff\"\n",
        front_matter: "",
        args: &[],
        expect: Expect::Refused("unknown field"),
    },
    Case {
        key: "team_copy",
        byop_toml: "team_copy = \"/tmp/elsewhere.db\"\n",
        front_matter: "",
        args: &[],
        expect: Expect::Refused("unknown field"),
    },
    Case {
        key: "companions",
        byop_toml: "",
        front_matter: "byop:\n  source: /etc/hostname\n",
        args: &[],
        expect: Expect::Refused("cannot read source document"),
    },
    Case {
        key: "dataset_paths",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_dataset_cannot_read_files_outside_its_folder"),
    },
    Case {
        key: "byop.toml",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "a_byop_toml_above_the_repository_or_writable_by_others_does_not_govern",
        ),
    },
    Case {
        key: "non_file_uri",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_non_file_uri_gets_no_file_system_access"),
    },
    Case {
        key: "serve_bind",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_non_loopback_address_needs_allow_remote"),
    },
    Case {
        key: "serve_inputs",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("pasted_text_reads_no_files_and_chooses_no_playbook"),
    },
    Case {
        key: "serve_key_idle",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("an_idle_sessions_key_is_forgotten_and_forget_key_drops_it"),
    },
    Case {
        key: "serve_datasets",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "a_dataset_named_at_start_up_opens_as_its_html_view_and_nothing_else_is_read",
        ),
    },
    Case {
        key: "variant.base_url",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_variant_cannot_choose_where_the_key_goes"),
    },
    Case {
        key: "variant.key",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy("a_variant_cannot_choose_where_the_key_goes"),
    },
    Case {
        key: "variant.model",
        byop_toml: "",
        front_matter: "",
        args: &[],
        expect: Expect::ProvedBy(
            "a_run_generates_validates_repairs_and_compares_and_a_second_run_makes_no_call",
        ),
    },
];

/// The first column of the table under "## Who may set what".
fn table_keys() -> Vec<String> {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/security.md")).unwrap();
    let start = doc
        .find("## Who may set what")
        .expect("the table's section");
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| key"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.split('|')
                .nth(1)
                .unwrap()
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect()
}

fn test_exists(name: &str) -> bool {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests");
    std::fs::read_dir(dir).unwrap().flatten().any(|f| {
        std::fs::read_to_string(f.path()).is_ok_and(|t| t.contains(&format!("fn {name}()")))
    })
}

fn memo(front_matter: &str) -> String {
    format!(
        "---\ntitle: t\n{front_matter}---\n# Review\n\nThe liability cap is set at the fees paid in the preceding twelve months.\n\n## Not checked / missing information\n\n- The exhibits were not provided.\n"
    )
}

#[test]
fn every_row_of_the_table_holds_against_a_hostile_repository() {
    let keys = table_keys();
    assert!(keys.len() >= CASES.len(), "the table: {keys:?}");
    for key in &keys {
        let case = CASES.iter().find(|c| c.key == key);
        let case =
            case.unwrap_or_else(|| panic!("row `{key}` of docs/security.md has no case here"));
        if let Expect::ProvedBy(test) = case.expect {
            assert!(test_exists(test), "row `{key}`: no test `{test}`");
            continue;
        }
        let ws = Ws::new();
        std::fs::create_dir(ws.path("ws")).unwrap();
        ws.write("ws/pb.json", PB);
        ws.write(
            "ws/impostor.json",
            &PB.replace("\"lenient\"", "\"ai_plugin_observability_v1\""),
        );
        ws.write("ws/byop.toml", case.byop_toml);
        ws.write("ws/empty.txt", "\u{feff}\n \n");
        ws.write("ws/doc.ai.md", &memo(case.front_matter));
        let o = ws
            .cmd()
            .current_dir(ws.path("ws"))
            .env_remove("BYOP_DB")
            .args(["check", "--format", "json", "--fail-on", "never"])
            .args(["--mode", "deterministic"])
            .args(case.args)
            .arg("doc.ai.md")
            .output()
            .unwrap();
        let err = stderr(&o);
        match case.expect {
            Expect::Refused(why) => {
                assert_eq!(o.status.code(), Some(2), "row `{key}`: {err}");
                assert!(err.contains(why), "row `{key}`: {err}");
            }
            Expect::Ignored(notice, field, value) => {
                assert_eq!(o.status.code(), Some(0), "row `{key}`: {err}");
                assert!(err.contains(notice), "row `{key}`: {err}");
                let r = &json(&o)["byop_report"];
                assert_eq!(r[field].to_string().trim_matches('"'), value, "row `{key}`");
            }
            Expect::ProvedBy(_) => unreachable!(),
        }
    }
}
