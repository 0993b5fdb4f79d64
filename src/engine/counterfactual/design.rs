//! Blocked randomization: the order within each pair
//! and the treatment value of each pair, balanced in blocks and drawn from the seed.

/// Which side of a pair is evaluated first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum First {
    Control,
    Treatment,
}

/// One pair's assignment: its run index, order and treatment value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairPlan {
    /// 1-based; both sides of the pair are evaluated with this run index.
    pub run: u32,
    pub first: First,
    /// Index into the cue's treatment values.
    pub treatment: usize,
}

/// Pairs `1..=pairs` of one cue with `treatments` values. Orders come in blocks of two
/// (one control-first, one treatment-first, shuffled); treatment values in blocks of
/// `treatments` (each value once per block, shuffled). Same seed, same plan.
pub fn blocked_permutations(
    pairs: u32,
    treatments: usize,
    rng: &mut fastrand::Rng,
) -> Vec<PairPlan> {
    let n = pairs as usize;
    let orders = blocks(n, &[First::Control, First::Treatment], rng);
    let values: Vec<usize> = (0..treatments.max(1)).collect();
    let values = blocks(n, &values, rng);
    (0..n)
        .map(|i| PairPlan {
            run: i as u32 + 1,
            first: orders[i],
            treatment: values[i],
        })
        .collect()
}

/// `n` items: `items` repeated in shuffled blocks, the last block cut short.
fn blocks<T: Copy>(n: usize, items: &[T], rng: &mut fastrand::Rng) -> Vec<T> {
    let mut out = Vec::with_capacity(n + items.len());
    while out.len() < n {
        let mut block = items.to_vec();
        rng.shuffle(&mut block);
        out.extend(block);
    }
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_block_is_balanced_and_the_seed_fixes_the_plan() {
        let a = blocked_permutations(20, 3, &mut fastrand::Rng::with_seed(42));
        let b = blocked_permutations(20, 3, &mut fastrand::Rng::with_seed(42));
        assert_eq!(a, b);
        assert_eq!(
            a.iter().map(|p| p.run).collect::<Vec<_>>(),
            (1..=20).collect::<Vec<_>>()
        );
        for block in a.chunks(2) {
            assert_ne!(
                block[0].first, block[1].first,
                "one of each order per block"
            );
        }
        for block in a.chunks(3).filter(|b| b.len() == 3) {
            let mut v: Vec<usize> = block.iter().map(|p| p.treatment).collect();
            v.sort();
            assert_eq!(v, [0, 1, 2], "each treatment value once per block");
        }
        let other = blocked_permutations(20, 3, &mut fastrand::Rng::with_seed(43));
        assert_ne!(a, other, "another seed, another plan");
    }

    #[test]
    fn odd_counts_and_one_treatment() {
        let p = blocked_permutations(3, 1, &mut fastrand::Rng::with_seed(1));
        assert_eq!(p.len(), 3);
        assert!(p.iter().all(|p| p.treatment == 0));
        assert!(blocked_permutations(0, 1, &mut fastrand::Rng::with_seed(1)).is_empty());
    }
}
