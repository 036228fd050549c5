//! The check every float column tier of one argument takes against its scalar tier
//! (CORE-MATH): exp_column, log_column, expm1_column.

use crate::reference::FastFn;

/// A float column: the function at each float of the input, NaN where undecided.
pub(crate) type Column = fn(&[f64], &mut Vec<f64>);

/// How many blocks of 2^16 consecutive float encodings the check skips between two it runs:
/// every 31st block (every exponent, both signs) keeps the test tier's time in seconds;
/// `CLACC_EVERY_FLOAT=1` checks all 2^32 floats.
fn stride() -> usize {
    if std::env::var_os("CLACC_EVERY_FLOAT").is_some() {
        1
    } else if cfg!(debug_assertions) {
        97 * 31
    } else {
        31
    }
}

/// Checks `column` against `scalar` on floats as the sweep gives them (widened to double), in
/// blocks of consecutive encodings: wherever the column decides, its value is the scalar
/// tier's, bit for bit. Returns how many floats it left undecided (NaN), and prints it.
pub(crate) fn every_float_matches(column: Column, scalar: FastFn, name: &str) -> usize {
    const BLOCK: u64 = 1 << 16;
    let stride = stride();
    let mut undecided = 0;
    let mut block = Vec::with_capacity(BLOCK as usize);
    let mut values = Vec::new();
    for number in (0..(1u64 << 32) / BLOCK).step_by(stride) {
        block.clear();
        block.extend(
            (number * BLOCK..(number + 1) * BLOCK)
                .map(|bits| f64::from(f32::from_bits(bits as u32))),
        );
        column(&block, &mut values);
        assert_eq!(values.len(), block.len(), "{name}: a short column");
        let mut wrong = Vec::new();
        for (x, value) in block.iter().zip(&values) {
            if value.is_nan() {
                undecided += 1;
            } else if value.to_bits() != scalar(&[*x]).to_bits() {
                wrong.push((*x, *value, scalar(&[*x])));
            }
        }
        assert!(
            wrong.is_empty(),
            "{name}: (x, column, scalar) {:?}",
            &wrong[..wrong.len().min(5)]
        );
    }
    eprintln!("{name}: {undecided} floats left undecided (stride {stride})");
    undecided
}

/// Checks a column tier's domain test ([`crate::judge::ColumnTier::nan_at`]) against `scalar`
/// on the floats [`every_float_matches`] checks: `nan_at(x)` exactly where `scalar(x)` is NaN
/// (the test may leave NaNs to the scalar tier, but these leave none).
pub(crate) fn nan_domain_matches(nan_at: fn(f64) -> bool, scalar: FastFn, name: &str) {
    const BLOCK: u64 = 1 << 16;
    for number in (0..(1u64 << 32) / BLOCK).step_by(stride()) {
        let wrong: Vec<f64> = (number * BLOCK..(number + 1) * BLOCK)
            .map(|bits| f64::from(f32::from_bits(bits as u32)))
            .filter(|x| nan_at(*x) != scalar(&[*x]).is_nan())
            .take(5)
            .collect();
        assert!(wrong.is_empty(), "{name}: nan_at wrong at {wrong:?}");
    }
}
