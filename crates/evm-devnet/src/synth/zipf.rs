//! The synthetic chain's randomness: a SplitMix64 stream seeded per block and per tx (so any
//! block is drawn without the ones before it), and a Zipf-like draw of ranks (a bounded power
//! law, inverted in closed form: O(1) a draw, no table), so rank 0 is drawn most often.

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014).
#[derive(Debug, Clone)]
pub struct Rng(u64);

/// SplitMix64's output function: a 64-bit mix of `z`.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream of `parts` (a seed, a block number, a tx index...), each mixed in.
    pub fn of(parts: &[u64]) -> Self {
        let mut s = 0x5157_4e4c_494e_4531_u64;
        for p in parts {
            s = mix(s ^ mix(p.wrapping_add(0x9e37_79b9_7f4a_7c15)));
        }
        Self(s)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[0, n)` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n.max(1))) >> 64) as u64
    }
}

/// Ranks `0..n` drawn with probability falling as a power `s` of the rank: the continuous
/// power law on `[1, n + 1)` inverted, then floored. With `s` = 1.1 and a million ranks, rank 0
/// takes about 9% of the draws.
#[derive(Debug, Clone, Copy)]
pub struct Zipf {
    n: u64,
    /// `1 - s`.
    e: f64,
    /// `(n + 1)^(1 - s) - 1`.
    span: f64,
}

impl Zipf {
    /// Ranks `0..n` (at least one) with exponent `s` (not 1; 1.1 is a good default).
    pub fn new(n: u64, s: f64) -> Self {
        let n = n.max(1);
        let s = if (s - 1.0).abs() < 1e-6 { 1.000_001 } else { s };
        let e = 1.0 - s;
        Self {
            n,
            e,
            span: ((n + 1) as f64).powf(e) - 1.0,
        }
    }

    /// One rank.
    pub fn draw(&self, rng: &mut Rng) -> u64 {
        let x = (self.span * rng.unit() + 1.0).powf(1.0 / self.e);
        (x as u64).saturating_sub(1).min(self.n - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_deterministic_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::of(&[1, 2]).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::of(&[1, 2]).next_u64(), Rng::of(&[2, 1]).next_u64());
        let mut r = Rng::of(&[7]);
        assert!((0..1000).all(|_| r.below(10) < 10 && r.unit() < 1.0));
    }

    #[test]
    fn zipf_ranks_are_in_range_and_skewed() {
        let z = Zipf::new(1_000_000, 1.1);
        let mut r = Rng::of(&[3]);
        let mut counts = [0u32; 4];
        let n = 100_000;
        for _ in 0..n {
            let k = z.draw(&mut r);
            assert!(k < 1_000_000);
            if k < 4 {
                counts[k as usize] += 1;
            }
        }
        // Rank 0 about 9% of the draws (the closed form above), each next rank fewer.
        let share = f64::from(counts[0]) / f64::from(n);
        assert!((0.07..0.11).contains(&share), "{share}");
        assert!(counts.windows(2).all(|w| w[0] > w[1]), "{counts:?}");
        let one = Zipf::new(1, 1.1);
        assert_eq!(one.draw(&mut r), 0);
    }
}
