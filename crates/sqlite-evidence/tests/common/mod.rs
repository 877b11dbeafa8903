//! What the tests that generate databases share: a deterministic generator and the
//! words of their texts.

/// A small deterministic generator (no dependency, same bytes on every run).
pub struct Lcg(pub u64);

impl Lcg {
    /// The next number below `n`.
    pub fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "kilo", "lima", "oscar", "tango", "zulu",
];

/// One to `max` words, space-separated.
pub fn text(r: &mut Lcg, max: u64) -> String {
    let n = 1 + r.next(max);
    (0..n)
        .map(|_| WORDS[r.next(10) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}
