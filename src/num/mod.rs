//! Numbers: floating-point formats, hexadecimal floats, rounding between formats, and the one
//! ULP-distance function. Imports nothing from the rest of clacc.

pub mod convert;
pub mod exact_sum;
pub mod float8;
pub mod fp;
pub mod hexfloat;
#[cfg(test)]
pub(crate) mod test_draws;
pub mod ulp;
pub mod wide;
