//! The paired statistics against established implementations (statsmodels and R
//! values in tests/data/stats_reference_values.json, a copy of
//! shared/corpus/stats/reference_values.json) and against values worked out by hand.

use super::*;
use serde_json::Value;

fn reference() -> Value {
    serde_json::from_str(include_str!(
        "../../../tests/data/stats_reference_values.json"
    ))
    .expect("reference values parse")
}

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol,
        "{what}: got {got}, want {want} (tolerance {tol})"
    );
}

/// statsmodels' table is [[a, b], [c, d]]: the discordant cells are [0][1] and [1][0].
fn discordant(entry: &Value) -> (u64, u64) {
    let t = &entry["table"];
    (t[0][1].as_u64().unwrap(), t[1][0].as_u64().unwrap())
}

#[test]
fn mcnemar_matches_statsmodels_and_r() {
    let r = reference();
    let entries = r["mcnemar"].as_array().unwrap();
    assert_eq!(entries.len(), 7);
    let mut checked = 0;
    for e in entries {
        let (b, c) = discordant(e);
        if let Some(x) = e.get("exact") {
            // Published to 6 decimals ("vassar college" values).
            close(
                mcnemar_exact_p(b, c),
                x["p"].as_f64().unwrap(),
                5e-7,
                "exact p",
            );
            assert_eq!(b.min(c), x["statistic"].as_u64().unwrap());
            checked += 1;
        }
        for (key, corrected) in [("chi2_cc", true), ("chi2", false)] {
            if let Some(x) = e.get(key) {
                let (stat, p) = mcnemar_chi2(b, c, corrected);
                let want_stat = x["statistic"].as_f64().unwrap();
                let want_p = x["p"].as_f64().unwrap();
                // R prints as few as 4 significant digits (4.115e-05): half a unit in
                // the 4th digit is at most 1.25e-4 of the value.
                close(stat, want_stat, 1.25e-4 * want_stat.max(1.0), key);
                close(p, want_p, 1.25e-4 * want_p, key);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 13);
}

#[test]
fn mcnemar_matches_the_full_precision_recomputation() {
    let r = reference();
    let full = r["mcnemar_recomputed_full_precision"].as_object().unwrap();
    for (name, v) in full.iter().filter(|(k, _)| k.starts_with('b')) {
        let (b, c) = name[1..].split_once("_c").unwrap();
        let (b, c): (u64, u64) = (b.parse().unwrap(), c.parse().unwrap());
        let want = v["exact_p"].as_f64().unwrap();
        close(mcnemar_exact_p(b, c), want, 1e-12 * want.max(1e-3), name);
        if let Some(cc) = v.get("chi2_cc") {
            let (stat, p) = mcnemar_chi2(b, c, true);
            close(stat, cc[0].as_f64().unwrap(), 1e-12, name);
            close(
                p,
                cc[1].as_f64().unwrap(),
                1e-9 * cc[1].as_f64().unwrap(),
                name,
            );
        }
    }
}

#[test]
fn mcnemar_without_discordant_pairs_is_p_one() {
    assert_eq!(mcnemar_exact_p(0, 0), 1.0);
    assert_eq!(mcnemar_chi2(0, 0, true), (0.0, 1.0));
    // b = c: the exact p is capped at 1.
    assert_eq!(mcnemar_exact_p(10, 10), 1.0);
}

#[test]
fn benjamini_hochberg_matches_statsmodels_r_and_scipy() {
    let r = reference();
    let sets = r["benjamini_hochberg"].as_array().unwrap();
    assert_eq!(sets.len(), 5);
    for s in sets {
        let p: Vec<f64> = s["p"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let want: Vec<f64> = s["bh"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        let tol = s["tol"].as_f64().unwrap().max(1e-15);
        let got = benjamini_hochberg(&p);
        for (g, w) in got.iter().zip(&want) {
            // The tolerance is relative to the value's size (statsmodels' assert_almost_equal
            // at 15 decimals on values up to 1).
            close(
                *g,
                *w,
                tol.max(4.0 * f64::EPSILON * w.abs()),
                s["source"].as_str().unwrap(),
            );
        }
    }
}

#[test]
fn benjamini_hochberg_keeps_the_input_order() {
    let got = benjamini_hochberg(&[0.04, 0.01, 0.03]);
    // Sorted 0.01, 0.03, 0.04 → 0.03, 0.045, 0.04 → monotone from the top: 0.03, 0.04, 0.04.
    close(got[0], 0.04, 1e-15, "0.04");
    close(got[1], 0.03, 1e-15, "0.01");
    close(got[2], 0.04, 1e-15, "0.03");
    assert!(benjamini_hochberg(&[]).is_empty());
}

#[test]
fn log_odds_and_its_interval() {
    // b = 20, c = 5: ln 4 = 1.386294; SE = √(1/20 + 1/5) = √0.25 = 0.5.
    let (lo, se, ci) = log_odds(20, 5);
    close(lo, 4f64.ln(), 1e-12, "log odds");
    close(se, 0.5, 1e-12, "se");
    close(ci[0], 4f64.ln() - 1.959964 * 0.5, 1e-6, "lo");
    close(ci[1], 4f64.ln() + 1.959964 * 0.5, 1e-6, "hi");
    // A zero cell: 0.5 added to both: ln(6.5 / 0.5) = ln 13, SE = √(1/6.5 + 2).
    let (lo, se, _) = log_odds(6, 0);
    close(lo, 13f64.ln(), 1e-12, "log odds with zero cell");
    close(se, (1.0 / 6.5 + 2.0f64).sqrt(), 1e-12, "se with zero cell");
    // Nothing discordant: ln 1 = 0, SE = √(2 + 2) = 2.
    assert_eq!(log_odds(0, 0).0, 0.0);
    close(log_odds(0, 0).1, 2.0, 1e-12, "se 0/0");
}

#[test]
fn tost_against_hand_computed_values() {
    let m = default_margin();
    // b = c = 50: θ = 0, SE = √(2/50) = 0.2, both one-sided z = ln 1.5 / 0.2 = 2.0273;
    // a normal table gives Φ(2.0273) ≈ 0.97869, so p ≈ 1 − 0.97869 = 0.0213 < 0.05.
    let (lo, se, _) = log_odds(50, 50);
    let p = tost_p(lo, se, m);
    close(p, 0.0213, 1e-4, "tost 50/50");
    assert_eq!(equivalence_verdict(p, 1.0), Equivalence::Equivalent);
    // b = c = 10: SE = √0.2 = 0.4472, z = 0.4055 / 0.4472 = 0.9066, Φ ≈ 0.8177, p ≈ 0.1823.
    let (lo, se, _) = log_odds(10, 10);
    let p = tost_p(lo, se, m);
    close(p, 0.1823, 1e-4, "tost 10/10");
    assert_eq!(equivalence_verdict(p, 1.0), Equivalence::Inconclusive);
    // b = 30, c = 20: θ = ln 1.5 sits exactly on the upper margin, so the upper
    // one-sided test has z = 0 and p = Φ(0) = 0.5.
    let (lo, se, _) = log_odds(30, 20);
    close(tost_p(lo, se, m), 0.5, 1e-12, "tost on the margin");
    // A large effect with a significant difference: "different".
    let (lo, se, _) = log_odds(40, 2);
    let p = tost_p(lo, se, m);
    assert!(p > 0.9, "{p}");
    assert_eq!(
        equivalence_verdict(p, mcnemar_exact_p(40, 2)),
        Equivalence::Different
    );
}

#[test]
fn randomization_inference_by_exact_enumeration_against_hand_counts() {
    // b = 3, c = 0: T = 3; of the 2³ = 8 sign assignments only +++ and −−− reach |T*| = 3.
    close(randomization_p(3, 0, 1, 10_000), 2.0 / 8.0, 1e-15, "3/0");
    // b = 4, c = 1: T = 3; with k plus signs of 5, T* = 2k − 5, and |T*| ≥ 3 for
    // k ∈ {0, 1, 4, 5}: C(5,0) + C(5,1) + C(5,4) + C(5,5) = 12 of 32 = 0.375.
    close(randomization_p(4, 1, 1, 10_000), 12.0 / 32.0, 1e-15, "4/1");
    // b = c = 2: T = 0, every assignment reaches |T*| ≥ 0.
    assert_eq!(randomization_p(2, 2, 1, 10_000), 1.0);
    assert_eq!(randomization_p(0, 0, 1, 10_000), 1.0);
}

#[test]
fn randomization_inference_by_drawing_is_seeded_and_near_the_exact_law() {
    // 60 discordant pairs (b = 40, c = 20) are too many to enumerate: 10 000 draws.
    let a = randomization_p(40, 20, 7, 10_000);
    assert_eq!(a, randomization_p(40, 20, 7, 10_000), "same seed, same p");
    // Under sign-flipping, the number of + signs is Binomial(60, ½): P[|T*| ≥ 20] is the
    // exact McNemar p 0.0135; 10 000 draws estimate it within ±0.006 (about 5 SE).
    let exact = mcnemar_exact_p(40, 20);
    close(exact, 0.01347, 1e-4, "exact law");
    close(a, exact, 0.006, "drawn p");
    // 100 discordant pairs (b = 60, c = 40) use whole 64-bit words of signs too:
    // P[|T*| ≥ 20] = 0.0569 exactly (Binomial(100, ½)); SE of 10 000 draws ≈ 0.0023.
    let exact = mcnemar_exact_p(60, 40);
    close(exact, 0.05689, 1e-4, "exact law, 100 pairs");
    close(
        randomization_p(60, 40, 11, 10_000),
        exact,
        0.012,
        "drawn p, 100 pairs",
    );
    // The +1 correction: never exactly 0.
    assert!(randomization_p(60, 0, 3, 10_000) > 0.0);
}
