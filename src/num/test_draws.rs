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

    /// The next draw uniform in [0, 1): the top 53 bits of the next 64, over 2^53.
    pub(crate) fn next_unit(&mut self) -> f64 {
        (self.next_bits() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Every `N`-tuple of `values`, the last argument varying fastest, as one column per argument:
/// the tests' specials crossed with each other.
pub(crate) fn every_tuple<const N: usize>(values: &[f64]) -> [Vec<f64>; N] {
    let mut columns: [Vec<f64>; N] = std::array::from_fn(|_| Vec::new());
    let count = values.len().pow(N as u32);
    for mut number in 0..count {
        for column in columns.iter_mut().rev() {
            column.push(values[number % values.len()]);
            number /= values.len();
        }
    }
    columns
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_tuple_crosses_the_values_in_order() {
        let [x, y] = super::every_tuple::<2>(&[1.0, 2.0, 3.0]);
        assert_eq!(x, [1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0]);
        assert_eq!(y, [1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 1.0, 2.0, 3.0]);
    }
}
