//! The tests' sampled inputs: one fixed, dependency-free stream of bit patterns, so a failing
//! sample reproduces run after run.

/// xorshift64 (shifts 13, 7, 17) from a non-zero seed.
pub(crate) struct Xorshift(pub(crate) u64);

impl Xorshift {
    /// The next 64 bits of the stream.
    pub(crate) fn next_bits(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
