//! The spec's allowances, each written once for every judge that applies it.

use rug::Float;

use crate::num::fp::FloatType;
use crate::num::ulp::ulp_of;

/// The overflow allowance of a ULP bound: "Where the range of allowed return values includes
/// any value of magnitude larger than that of the largest representable finite floating-point
/// number, operations may, additionally, return either an infinity of the appropriate sign or
/// the finite number with the largest magnitude of the appropriate sign"
/// (002_8f60b82f04afe871.txt, "ULP"). The allowed range of an `n` ulp bound is
/// [x − n·ulp(x), x + n·ulp(x)] around the exact result x: when it reaches beyond the largest
/// finite value, ±inf or ±max with x's sign are allowed too. Tables 3 and 4 (`judge::Rules`)
/// and Table 5's ulp bounds (`judge::relaxed`) both judge by it.
pub fn overflow_allowed(exact: &Float, bound: f64, device_result: f64, element: FloatType) -> bool {
    let max = element.max_finite();
    let candidate = device_result.is_infinite() || device_result.abs() == max;
    if !candidate || !exact.is_finite() {
        return false;
    }
    if device_result.is_sign_negative() != exact.is_sign_negative() {
        return false;
    }
    let mut reach = Float::with_val(exact.prec() + 64, &*exact.as_abs());
    reach += bound * ulp_of(exact, element);
    reach > max
}
