//! Paired statistics on binary outcomes (docs/contracts.md, Counterfactual audit): McNemar (exact and chi-square),
//! the log odds of the discordant pairs, Benjamini–Hochberg, TOST equivalence on the
//! log odds, and randomization inference by sign-flipping the pairs.
//!
//! Distributions come from `statrs` (binomial, chi-square, normal CDFs); nothing here
//! hand-rolls a special function.

use statrs::distribution::{Binomial, ChiSquared, ContinuousCDF, DiscreteCDF, Normal};

/// z for a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_963_984_540_054;
/// The significance level used for "significant", "equivalent" and "different".
pub const ALPHA: f64 = 0.05;
/// Default TOST margin on the log odds: ± ln 1.5.
pub fn default_margin() -> f64 {
    1.5f64.ln()
}

/// Exact two-sided McNemar p: `min(1, 2 · P[X ≤ min(b, c)])`, `X ~ Binomial(b + c, ½)`.
pub fn mcnemar_exact_p(b: u64, c: u64) -> f64 {
    let n = b + c;
    if n == 0 {
        return 1.0;
    }
    let dist = Binomial::new(0.5, n).expect("p = 0.5 is a valid binomial");
    (2.0 * dist.cdf(b.min(c))).min(1.0)
}

/// McNemar's chi-square statistic and p (1 df), with or without continuity correction.
pub fn mcnemar_chi2(b: u64, c: u64, corrected: bool) -> (f64, f64) {
    let n = (b + c) as f64;
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let diff = (b as f64 - c as f64).abs();
    let diff = if corrected { diff - 1.0 } else { diff };
    let stat = diff * diff / n;
    let chi = ChiSquared::new(1.0).expect("1 degree of freedom is valid");
    (stat, chi.sf(stat))
}

/// Log odds `ln(b / c)` of the discordant pairs, its standard error `√(1/b + 1/c)` and
/// its 95 % interval; 0.5 is added to both counts when either is zero.
pub fn log_odds(b: u64, c: u64) -> (f64, f64, [f64; 2]) {
    let (b, c) = if b == 0 || c == 0 {
        (b as f64 + 0.5, c as f64 + 0.5)
    } else {
        (b as f64, c as f64)
    };
    let lo = (b / c).ln();
    let se = (1.0 / b + 1.0 / c).sqrt();
    (lo, se, [lo - Z_95 * se, lo + Z_95 * se])
}

/// Benjamini–Hochberg adjusted p-values, in the order given (as statsmodels
/// `multipletests(method="fdr_bh")` and R `p.adjust(method="BH")`).
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let mut order: Vec<usize> = (0..m).collect();
    order.sort_by(|&i, &j| p[i].total_cmp(&p[j]));
    let mut adjusted = vec![0.0; m];
    let mut running = 1.0f64;
    for rank in (0..m).rev() {
        let i = order[rank];
        let v = p[i] * m as f64 / (rank + 1) as f64;
        running = running.min(v);
        adjusted[i] = running.min(1.0);
    }
    adjusted
}

pub use crate::model::counterfactual::Equivalence;

/// Two one-sided z tests that the log odds lies within `±margin`: the larger of
/// `P[Z ≥ (θ + M)/SE]` and `P[Z ≤ (θ − M)/SE]`.
pub fn tost_p(log_odds: f64, se: f64, margin: f64) -> f64 {
    let z = Normal::standard();
    let lower = 1.0 - z.cdf((log_odds + margin) / se);
    let upper = z.cdf((log_odds - margin) / se);
    lower.max(upper)
}

/// "equivalent" when TOST rejects non-equivalence; else "different" when the
/// (adjusted) difference test is significant; else "inconclusive".
pub fn equivalence_verdict(tost_p: f64, difference_p: f64) -> Equivalence {
    if tost_p < ALPHA {
        Equivalence::Equivalent
    } else if difference_p < ALPHA {
        Equivalence::Different
    } else {
        Equivalence::Inconclusive
    }
}

/// Pairs up to which randomization inference enumerates every sign assignment
/// (2^16 = 65 536 assignments); above it, `draws` random ones are used.
pub const EXACT_MAX_DISCORDANT: u64 = 16;
/// The fewest random sign assignments drawn.
pub const MIN_DRAWS: u32 = 10_000;

/// Randomization inference: under the null the two outcomes of a pair are
/// exchangeable, so each pair's difference (treatment fail − control fail ∈ {−1, 0, 1})
/// keeps or flips its sign with probability ½. Statistic `T = Σ dᵢ = b − c`; p is the
/// share of sign assignments with `|T*| ≥ |T|` — all `2^(b+c)` of them when the
/// discordant pairs are few (concordant pairs are 0 under any sign), else `draws`
/// random ones from `seed`, as `(1 + hits) / (1 + draws)`.
pub fn randomization_p(b: u64, c: u64, seed: u64, draws: u32) -> f64 {
    let m = b + c;
    let observed = (b as i64 - c as i64).abs();
    if m == 0 {
        return 1.0;
    }
    if m <= EXACT_MAX_DISCORDANT {
        let total = 1u64 << m;
        // A set bit keeps the pair's sign: the first b pairs are +1, the rest −1.
        let hits = (0..total)
            .filter(|mask| {
                let t: i64 = (0..m)
                    .map(|i| {
                        let d = if i < b { 1 } else { -1 };
                        if mask >> i & 1 == 1 { d } else { -d }
                    })
                    .sum();
                t.abs() >= observed
            })
            .count();
        return hits as f64 / total as f64;
    }
    let draws = draws.max(MIN_DRAWS);
    let mut rng = fastrand::Rng::with_seed(seed);
    let hits = (0..draws)
        .filter(|_| {
            // Every discordant pair contributes ±1 with a fair sign, whatever its own:
            // one random bit per pair, 64 at a time.
            let plus = fair_bits(&mut rng, m) as i64;
            (2 * plus - m as i64).abs() >= observed
        })
        .count();
    (1 + hits) as f64 / (1 + draws) as f64
}

/// How many of `m` fair random bits are set.
pub(crate) fn fair_bits(rng: &mut fastrand::Rng, m: u64) -> u32 {
    let mut set = 0;
    let mut left = m;
    while left >= 64 {
        set += rng.u64(..).count_ones();
        left -= 64;
    }
    if left > 0 {
        set += (rng.u64(..) & ((1u64 << left) - 1)).count_ones();
    }
    set
}

#[cfg(test)]
#[path = "stats_tests.rs"]
mod tests;
