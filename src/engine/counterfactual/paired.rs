//! Two more readings of the pairs: the paired difference of the fail rates with a wild
//! bootstrap interval (beside McNemar's test of the same pairs), and each side's fail
//! rate corrected for a detector's known error rates.

use super::stats::{Z_95, fair_bits};

/// Bootstrap draws for the paired-difference interval.
pub const BOOTSTRAP_DRAWS: u32 = 2_000;

/// Wild (Rademacher) bootstrap of the mean paired difference `d̄`, where each counted
/// pair's `dᵢ` = treatment fail − control fail: `b` pairs of +1, `c` of −1, the other
/// `n − b − c` of 0. Each draw is `d̄ + (1/n) Σ wᵢ (dᵢ − d̄)` with fair random signs `wᵢ`
/// from `seed`; the interval is the 2.5th and 97.5th percentile of the draws. Returns
/// (d̄, interval); `n = 0` gives (0, [0, 0]).
pub fn wild_bootstrap(b: u64, c: u64, n: u64, seed: u64, draws: u32) -> (f64, [f64; 2]) {
    if n == 0 {
        return (0.0, [0.0, 0.0]);
    }
    let nf = n as f64;
    let mean = (b as f64 - c as f64) / nf;
    let zero = n.saturating_sub(b + c);
    let mut rng = fastrand::Rng::with_seed(seed);
    // Σ of `k` fair signs = 2 · (bits set) − k.
    let mut signs = |k: u64| 2.0 * fair_bits(&mut rng, k) as f64 - k as f64;
    let mut means: Vec<f64> = (0..draws.max(1))
        .map(|_| {
            let s = (1.0 - mean) * signs(b) + (-1.0 - mean) * signs(c) + (-mean) * signs(zero);
            mean + s / nf
        })
        .collect();
    means.sort_by(f64::total_cmp);
    let at = |q: f64| means[((means.len() - 1) as f64 * q).round() as usize];
    (mean, [at(0.025), at(0.975)])
}

/// Wilson score 95 % interval of `k` successes in `n`.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let (nf, p, z2) = (n as f64, k as f64 / n as f64, Z_95 * Z_95);
    let denom = 1.0 + z2 / nf;
    let center = (p + z2 / (2.0 * nf)) / denom;
    let half = Z_95 * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom;
    [(center - half).max(0.0), (center + half).min(1.0)]
}

/// The classical correction of a rate read by a detector that calls a true negative
/// positive with probability `alpha` and misses a true positive with probability `beta`:
/// `(mean − alpha) / (1 − alpha − beta)`, kept within [0, 1]. `None` when
/// `alpha + beta ≥ 1` (the detector carries no information).
pub fn correct_measurement(mean: f64, alpha: f64, beta: f64) -> Option<f64> {
    let scale = 1.0 - alpha - beta;
    (scale > 0.0).then(|| ((mean - alpha) / scale).clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} vs {b}");
    }

    #[test]
    fn the_correction_matches_the_formula_worked_by_hand() {
        // (0.5 − 0.1) / (1 − 0.1 − 0.2) = 0.4 / 0.7
        close(
            correct_measurement(0.5, 0.1, 0.2).unwrap(),
            0.571_428_6,
            1e-6,
        );
        // No error: the rate stands; below alpha it cannot go under 0.
        assert_eq!(correct_measurement(0.3, 0.0, 0.0), Some(0.3));
        assert_eq!(correct_measurement(0.05, 0.1, 0.2), Some(0.0));
        assert_eq!(correct_measurement(0.5, 0.6, 0.4), None);
    }

    #[test]
    fn wilson_matches_the_published_interval() {
        // 5 of 10: 0.2366 – 0.7634 (Wilson 1927; Newcombe 1998, table I).
        let [lo, hi] = wilson(5, 10);
        close(lo, 0.2366, 1e-4);
        close(hi, 0.7634, 1e-4);
        // 0 of 10: [0, 0.2775].
        let [lo, hi] = wilson(0, 10);
        close(lo, 0.0, 1e-12);
        close(hi, 0.2775, 1e-4);
    }

    #[test]
    fn the_wild_bootstrap_interval_is_worked_out_by_hand_where_it_can_be() {
        // Every pair the same: no residual, the interval is the point.
        assert_eq!(wild_bootstrap(0, 0, 20, 1, 500), (0.0, [0.0, 0.0]));
        assert_eq!(wild_bootstrap(20, 0, 20, 1, 500), (1.0, [1.0, 1.0]));
        // d = (+1, −1): d̄ = 0 and a draw is (w₁ − w₂)/2 ∈ {−1, 0, 0, +1}: the 2.5th and
        // 97.5th percentiles of many draws are −1 and +1.
        assert_eq!(wild_bootstrap(1, 1, 2, 7, 2_000), (0.0, [-1.0, 1.0]));
        // Large n: the draws' spread is √Σ(dᵢ − d̄)² / n. b = 30, c = 10, n = 100:
        // d̄ = 0.2, Σ = 30·0.64 + 10·1.44 + 60·0.04 = 36, so sd = 0.06 and the interval
        // is about 0.2 ± 1.96 · 0.06 = [0.082, 0.318].
        let (d, [lo, hi]) = wild_bootstrap(30, 10, 100, 42, 10_000);
        close(d, 0.2, 1e-12);
        close(lo, 0.0824, 0.015);
        close(hi, 0.3176, 0.015);
    }

    #[test]
    fn the_same_seed_gives_the_same_interval() {
        let a = wild_bootstrap(9, 4, 20, 13, BOOTSTRAP_DRAWS);
        assert_eq!(a, wild_bootstrap(9, 4, 20, 13, BOOTSTRAP_DRAWS));
        assert!(a.1[0] < a.0 && a.0 < a.1[1], "{a:?}");
    }
}
