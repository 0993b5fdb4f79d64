use super::*;

fn policy(toml: &str, locked: bool) -> (tempfile::TempDir, Policy) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(FILE_NAME);
    std::fs::write(&p, toml).unwrap();
    let c = Config::load(&p).unwrap();
    (dir, Policy::new(Arc::new(c), locked))
}

#[test]
fn locked_mode_comes_from_the_flag_env_or_ci_and_only_the_flag_turns_it_off() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert!(!lock(None, &env(&[])).on);
    assert!(lock(None, &env(&[("BYOP_LOCKED", "1")])).on);
    let ci = lock(None, &env(&[("CI", "true"), ("BYOP_LOCKED", "0")]));
    assert!(ci.on && ci.notice.unwrap().contains("CI=true"));
    assert!(!lock(Some(false), &env(&[("CI", "true")])).on);
    assert!(lock(Some(true), &env(&[])).on);
}

#[test]
fn the_workspace_may_make_checks_stricter_never_weaker() {
    let (_d, p) = policy(
        "[evaluator]\ncanary = false\nruns = 2\nmax_runs = 9\n[telemetry]\ninclude_text = true\n",
        false,
    );
    assert_eq!((p.canary, p.runs, p.max_runs), (None, None, Some(9)));
    assert_eq!(p.notices.len(), 3, "{:?}", p.notices);
    let (_d, p) = policy("[evaluator]\ncanary = true\nruns = 5\n", false);
    assert_eq!((p.canary, p.runs), (Some(true), Some(5)));
    assert!(p.notices.is_empty());
}

#[test]
fn locked_mode_ignores_the_rule_choosing_keys_with_a_notice() {
    let (_d, p) = policy(
        "playbook = \"x.json\"\ninclude = [\"a/*.md\"]\n[evaluator]\nmodel = \"tiny\"\n",
        true,
    );
    assert_eq!(p.playbook, None);
    assert_eq!(p.include.len(), DEFAULT_INCLUDE.len());
    assert_eq!(p.evaluator.model, None);
    assert_eq!(p.notices.len(), 3, "{:?}", p.notices);
}

#[test]
fn the_store_stays_inside_the_workspace_and_off_servers() {
    for db in ["../x.db", "/tmp/x.db", "a/../../x.db"] {
        let (_d, p) = policy(&format!("db = \"{db}\"\n"), false);
        assert!(p.db_path().is_err(), "{db}");
    }
    let (d, p) = policy("db = \"state/x.db\"\n", false);
    assert_eq!(p.db_path().unwrap(), d.path().join("state/x.db"));
    std::fs::write(d.path().join("notes.txt"), "").unwrap();
    let p = Policy::new(
        Arc::new(Config::parse("db = \"notes.txt\"\n", &d.path().join(FILE_NAME)).unwrap()),
        false,
    );
    assert!(p.db_path().unwrap_err().contains("not a byop store"));
}

#[test]
fn pins_split_and_compare() {
    assert_eq!(split_pin("x@sha256:ab"), ("x", Some("sha256:ab")));
    assert_eq!(split_pin("a@b.json"), ("a@b.json", None));
    assert!(check_pin("x", Some("sha256:ab"), "sha256:cd").is_err());
    assert!(check_pin("x", Some("sha256:ab"), "sha256:ab").is_ok());
}

#[test]
fn a_variant_never_chooses_where_the_key_goes() {
    use crate::engine::generate::VariantKeys;
    let keys = |provider: Option<&str>, endpoint: bool, key: bool| VariantKeys {
        provider: provider.map(str::to_string),
        endpoint,
        key,
    };
    assert_eq!(
        variant_endpoint(&keys(None, false, false), "anthropic"),
        Ok(vec![])
    );
    let n = variant_endpoint(&keys(Some("Anthropic"), true, false), "anthropic").unwrap();
    assert!(n[0].starts_with("ignored base_url"), "{n:?}");
    let e = variant_endpoint(&keys(None, false, true), "anthropic").unwrap_err();
    assert!(e.contains("API key"), "{e}");
    let e = variant_endpoint(&keys(Some("openai"), false, false), "anthropic").unwrap_err();
    assert!(e.contains("provider `openai`"), "{e}");
}
