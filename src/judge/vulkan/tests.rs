//! Hand-computed cases for each rule of the Vulkan appendix (`judge::vulkan::judge`).

use super::*;
use crate::num::test_draws::Xorshift;
use crate::spec::environment::{Revision, VULKAN};
use crate::spec::table::Requirement;
use crate::spec::table::{builtin_in, Profile};
use crate::spec::vulkan::column;
use crate::spec::vulkan::Cell;
use std::f64::consts::PI;

const PRESERVE: Modes = Modes {
    rounding: Some(Rounding::Rte),
    denorm_preserve: true,
    signed_zero_inf_nan_preserve: true,
    reassociate: true,
};

/// A float result of `exact` (evaluated in MPFR at 256 bits) judged by `requirement`.
fn float(
    requirement: &Requirement,
    exact: fn(f64) -> Float,
    args: &[f64],
    device_result: f64,
    modes: &Modes,
) -> Verdict {
    judge(
        requirement,
        FloatType::Float,
        FloatType::Float,
        args,
        &|a| exact(a[0]),
        device_result,
        modes,
        0,
    )
}

fn value(v: f64) -> Float {
    Float::with_val(256, v)
}

fn passes(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Pass(_))
}

fn fails(verdict: Verdict) -> bool {
    matches!(verdict, Verdict::Fail(_))
}

#[test]
fn correctly_rounded_follows_the_declared_mode_else_either_neighbour() {
    let cr = Requirement::CorrectlyRounded;
    let up = 1.0 + pow2(-23);
    let with = |rounding| Modes {
        rounding,
        ..PRESERVE
    };
    // 1 + 2^-24: a tie between 1 (even) and 1 + 2^-23.
    let tie = |_: f64| value(1.0) + pow2(-24);
    assert!(passes(float(
        &cr,
        tie,
        &[0.0],
        1.0,
        &with(Some(Rounding::Rte))
    )));
    assert!(fails(float(
        &cr,
        tie,
        &[0.0],
        up,
        &with(Some(Rounding::Rte))
    )));
    // 1 + 3·2^-25 is nearer 1 + 2^-23.
    let near_up = |_: f64| value(1.0) + 3.0 * pow2(-25);
    assert!(passes(float(
        &cr,
        near_up,
        &[0.0],
        up,
        &with(Some(Rounding::Rte))
    )));
    assert!(fails(float(
        &cr,
        near_up,
        &[0.0],
        1.0,
        &with(Some(Rounding::Rte))
    )));
    assert!(passes(float(
        &cr,
        near_up,
        &[0.0],
        1.0,
        &with(Some(Rounding::Rtz))
    )));
    assert!(fails(float(
        &cr,
        near_up,
        &[0.0],
        up,
        &with(Some(Rounding::Rtz))
    )));
    // No mode: either neighbour, nothing further.
    assert!(passes(float(&cr, near_up, &[0.0], 1.0, &with(None))));
    assert!(passes(float(&cr, near_up, &[0.0], up, &with(None))));
    assert!(fails(float(
        &cr,
        near_up,
        &[0.0],
        1.0 + pow2(-22),
        &with(None)
    )));
    // RTZ of a negative value rounds up.
    let negative = |_: f64| -(value(1.0) + 3.0 * pow2(-25));
    assert!(passes(float(
        &cr,
        negative,
        &[0.0],
        -1.0,
        &with(Some(Rounding::Rtz))
    )));
    assert!(fails(float(
        &cr,
        negative,
        &[0.0],
        -up,
        &with(Some(Rounding::Rtz))
    )));
    // A representable result is the only one.
    assert!(fails(float(&cr, |_| value(2.0), &[0.0], up, &with(None))));
}

#[test]
fn relaxed_precision_rounds_in_half_but_returns_a_float() {
    // 1 + 2^-12 lies between the halves 1 and 1 + 2^-10: every float between them passes.
    let exact = |_: &[f64]| value(1.0) + pow2(-12);
    let cr = Requirement::CorrectlyRounded;
    let relaxed = |d| {
        judge(
            &cr,
            FloatType::Float,
            FloatType::Half,
            &[0.0],
            &exact,
            d,
            &PRESERVE,
            0,
        )
    };
    assert!(passes(relaxed(1.0 + pow2(-11))));
    assert!(passes(relaxed(1.0 + pow2(-10))));
    assert!(fails(relaxed(1.0 + pow2(-9))));
    // Its ULP counts are half's: 2 ulp of half at 1.5 is 2^-9.
    let two = Requirement::Ulp(2.0);
    let at = |d| {
        judge(
            &two,
            FloatType::Float,
            FloatType::Half,
            &[0.0],
            &|_| value(1.5),
            d,
            &PRESERVE,
            0,
        )
    };
    assert_eq!(at(1.5 + pow2(-9)), Verdict::Pass(2.0));
    assert_eq!(at(1.5 + 3.0 * pow2(-10)), Verdict::Fail(3.0));
}

#[test]
fn correct_result_is_the_exact_value() {
    let exact = Requirement::Exact;
    assert!(passes(float(
        &exact,
        |x| value(x.abs()),
        &[-2.5],
        2.5,
        &PRESERVE
    )));
    assert!(fails(float(
        &exact,
        |x| value(x.abs()),
        &[-2.5],
        2.5 + pow2(-22),
        &PRESERVE
    )));
}

#[test]
fn ulp_bounds_grow_with_the_argument() {
    let exp = Requirement::Vulkan(Cell::UlpPerMagnitude {
        constant: 3.0,
        per_magnitude: 2.0,
    });
    // At x = ±2 the bound is 3 + 4 = 7 ulp; the exact 1.5 has ulp 2^-23.
    let at_1_5 = |_: f64| value(1.5);
    for x in [2.0, -2.0] {
        assert_eq!(
            float(&exp, at_1_5, &[x], 1.5 + 7.0 * pow2(-23), &PRESERVE),
            Verdict::Pass(7.0)
        );
        assert_eq!(
            float(&exp, at_1_5, &[x], 1.5 + 8.0 * pow2(-23), &PRESERVE),
            Verdict::Fail(8.0)
        );
    }
    // At x = 0 it is 3 ulp.
    assert!(fails(float(
        &exp,
        at_1_5,
        &[0.0],
        1.5 + 4.0 * pow2(-23),
        &PRESERVE
    )));
}

#[test]
fn log_is_absolute_inside_its_range_and_ulp_outside() {
    let log = Requirement::Vulkan(Cell::UlpOutsideAbsoluteInside {
        ulp: 3.0,
        low: 0.5,
        high: 2.0,
        absolute: pow2(-21),
    });
    let ln = |x: f64| value(x).ln();
    // log(1) = 0: absolute error strictly below 2^-21.
    assert_eq!(
        float(&log, ln, &[1.0], pow2(-22), &PRESERVE),
        Verdict::Pass(pow2(-22))
    );
    assert_eq!(
        float(&log, ln, &[1.0], pow2(-21), &PRESERVE),
        Verdict::Fail(pow2(-21))
    );
    // Both ends are inside.
    assert!(passes(float(
        &log,
        ln,
        &[2.0],
        (2f64.ln() as f32) as f64 + pow2(-22),
        &PRESERVE
    )));
    // log(4) = 1.386...: 3 ulp of 2^-23 outside the range, where 2^-22 would be too much.
    let exact = value(4.0).ln();
    let three_up = exact.to_f64() as f32 as f64 + 3.0 * pow2(-23);
    assert!(fails(float(
        &log,
        ln,
        &[4.0],
        three_up + pow2(-23),
        &PRESERVE
    )));
    assert!(passes(float(
        &log,
        ln,
        &[4.0],
        (exact.to_f64() as f32) as f64,
        &PRESERVE
    )));
}

#[test]
fn sin_and_cos_are_absolute_inside_minus_pi_pi_and_unbounded_outside() {
    let sin = Requirement::Vulkan(Cell::AbsoluteInside {
        absolute: pow2(-11),
        low: -PI,
        high: PI,
    });
    let quarter = |_: f64| value(0.25);
    assert!(passes(float(
        &sin,
        quarter,
        &[3.0],
        0.25 + pow2(-11),
        &PRESERVE
    )));
    assert!(fails(float(
        &sin,
        quarter,
        &[3.0],
        0.25 + pow2(-11) + pow2(-20),
        &PRESERVE
    )));
    // The float nearest pi lies above it: outside. The float below it: inside.
    let float_pi = PI as f32 as f64;
    assert!(float_pi > PI);
    assert!(matches!(
        float(&sin, quarter, &[float_pi], 9.0, &PRESERVE),
        Verdict::Unbounded(_)
    ));
    let below = f32::from_bits((PI as f32).to_bits() - 1) as f64;
    assert!(fails(float(&sin, quarter, &[below], 9.0, &PRESERVE)));
    assert!(matches!(
        float(&sin, quarter, &[-4.0], 9.0, &PRESERVE),
        Verdict::Unbounded(_)
    ));
}

#[test]
fn fdiv_is_bounded_for_a_divisor_in_range_or_zero() {
    let fdiv = Requirement::Vulkan(Cell::UlpForDivisor {
        ulp: 2.5,
        low: pow2(-126),
        high: pow2(126),
    });
    let divide = |a: &[f64]| value(a[0]) / a[1];
    let at = |args: &[f64], d: f64, modes: &Modes| {
        judge(
            &fdiv,
            FloatType::Float,
            FloatType::Float,
            args,
            &divide,
            d,
            modes,
            0,
        )
    };
    // 1 / 3 = 0.333..., ulp 2^-25: 2 ulp off passes, 3 fails.
    let third = (1.0f32 / 3.0) as f64;
    assert!(passes(at(&[1.0, 3.0], third + 2.0 * pow2(-25), &PRESERVE)));
    assert!(fails(at(&[1.0, 3.0], third + 3.0 * pow2(-25), &PRESERVE)));
    // 2^126 is in the range, 2^127 is not.
    assert!(fails(at(&[1.0, pow2(126)], 1.0, &PRESERVE)));
    assert!(matches!(
        at(&[1.0, pow2(127)], 1.0, &PRESERVE),
        Verdict::Unbounded(_)
    ));
    assert!(matches!(
        at(&[1.0, -pow2(-127)], 1.0, &PRESERVE),
        Verdict::Unbounded(_)
    ));
    // y = 0: the exact infinity.
    assert!(passes(at(&[1.0, 0.0], f64::INFINITY, &PRESERVE)));
    assert!(fails(at(&[1.0, 0.0], 1.0, &PRESERVE)));
    // ... which without SignedZeroInfNanPreserve is undefined.
    let assumed = Modes {
        signed_zero_inf_nan_preserve: false,
        ..PRESERVE
    };
    assert!(matches!(
        at(&[1.0, 0.0], 1.0, &assumed),
        Verdict::Undefined(_)
    ));
    // 0 / 0 is not mathematically defined: poison.
    assert!(matches!(
        at(&[0.0, 0.0], 1.0, &PRESERVE),
        Verdict::Undefined(_)
    ));
}

#[test]
fn overflow_allows_infinity_or_the_largest_value_where_the_range_reaches_past_it() {
    let two = Requirement::Ulp(2.0);
    let at_max = |_: f64| value(FloatType::Float.max_finite());
    assert!(passes(float(
        &two,
        at_max,
        &[0.0],
        f64::INFINITY,
        &PRESERVE
    )));
    assert!(fails(float(
        &two,
        at_max,
        &[0.0],
        f64::NEG_INFINITY,
        &PRESERVE
    )));
    assert!(fails(float(
        &two,
        |_| value(1.0),
        &[0.0],
        f64::INFINITY,
        &PRESERVE
    )));
    // Without SignedZeroInfNanPreserve an exact result past the largest float is undefined.
    let assumed = Modes {
        signed_zero_inf_nan_preserve: false,
        ..PRESERVE
    };
    let beyond = |_: f64| value(FloatType::Float.max_finite()) * 2;
    assert!(matches!(
        float(&two, beyond, &[0.0], 1.0, &assumed),
        Verdict::Undefined(_)
    ));
    // A NaN or infinite operand, too.
    assert!(matches!(
        float(&two, value, &[f64::NAN], 1.0, &assumed),
        Verdict::Undefined(_)
    ));
    assert!(matches!(
        float(&two, value, &[f64::INFINITY], 1.0, &assumed),
        Verdict::Undefined(_)
    ));
}

#[test]
fn denormals_may_be_flushed_without_denorm_preserve() {
    let exact = Requirement::Exact;
    let flushing = Modes {
        denorm_preserve: false,
        ..PRESERVE
    };
    // A denormal result flushed to zero: 2^-140 · 2 = 2^-139.
    let double = |x: f64| value(x) * 2;
    assert!(passes(float(&exact, double, &[pow2(-140)], 0.0, &flushing)));
    assert!(fails(float(&exact, double, &[pow2(-140)], 0.0, &PRESERVE)));
    // A denormal operand flushed: 2^-140 · 2^30 = 2^-110 is normal, 0 · 2^30 = 0.
    let scale = |x: f64| value(x) * pow2(30);
    assert!(passes(float(&exact, scale, &[pow2(-140)], 0.0, &flushing)));
    assert!(passes(float(
        &exact,
        scale,
        &[-pow2(-140)],
        -0.0,
        &flushing
    )));
    assert!(fails(float(&exact, scale, &[pow2(-140)], 0.0, &PRESERVE)));
    // A normal operand is never flushed.
    assert!(fails(float(&exact, scale, &[pow2(-100)], 0.0, &flushing)));
}

#[test]
fn double_reads_the_single_cell_in_double_ulp() {
    // "at least that of single precision": 2 ulp of double, not of float.
    let two = Requirement::Ulp(2.0);
    let at = |d| {
        judge(
            &two,
            FloatType::Double,
            FloatType::Double,
            &[0.0],
            &|_| value(1.5),
            d,
            &PRESERVE,
            0,
        )
    };
    assert_eq!(at(1.5 + 2.0 * pow2(-52)), Verdict::Pass(2.0));
    assert!(fails(at(1.5 + pow2(-23))));
}

/// A float result of an inherited formula judged through [`judge`].
fn inherited(formula: &str, exact: fn(f64) -> Float, x: f64, device_result: f64) -> Verdict {
    float(
        &Requirement::Vulkan(Cell::Inherited(formula.to_string())),
        exact,
        &[x],
        device_result,
        &PRESERVE,
    )
}

#[test]
fn inherited_sqrt_allows_what_inversesqrt_then_a_division_may_give() {
    let sqrt = |x: f64| value(x).sqrt();
    let formula = "1.0 / inversesqrt(x)";
    let root = 2.0f64.sqrt() as f32 as f64;
    let ulp = pow2(-23);
    // inversesqrt(2) within 2 ulp (2^-23 relative 1.7e-7) moves the quotient by 2 ulp of
    // sqrt(2), and OpFDiv adds 2.5: about 4.5 ulp either side.
    assert!(passes(inherited(formula, sqrt, 2.0, root)));
    assert!(passes(inherited(formula, sqrt, 2.0, root + 4.0 * ulp)));
    assert!(passes(inherited(formula, sqrt, 2.0, root - 4.0 * ulp)));
    assert!(fails(inherited(formula, sqrt, 2.0, root + 6.0 * ulp)));
    assert!(fails(inherited(formula, sqrt, 2.0, root - 6.0 * ulp)));
    // 1.0 / inversesqrt(0) = 1.0 / inf = 0, and sqrt(inf) = inf: due exactly.
    assert!(passes(inherited(formula, sqrt, 0.0, 0.0)));
    assert!(fails(inherited(formula, sqrt, 0.0, pow2(-149))));
    assert!(passes(inherited(
        formula,
        sqrt,
        f64::INFINITY,
        f64::INFINITY
    )));
    // A negative argument is poison.
    assert!(matches!(
        inherited(formula, sqrt, -1.0, 1.0),
        Verdict::Undefined(_)
    ));
}

#[test]
fn inherited_tan_is_bounded_where_sin_and_cos_are_and_the_divisor_is_clear_of_zero() {
    let tan = |x: f64| value(x).tan();
    let formula = "sin(x) / cos(x)";
    let exact = 0.5f64.tan();
    // sin and cos within 2^-11: the quotient moves by about 8.6e-4 at 0.5.
    assert!(passes(inherited(formula, tan, 0.5, exact + 5e-4)));
    assert!(fails(inherited(formula, tan, 0.5, exact + 2e-3)));
    // Outside [-pi, pi] sin and cos are bounded nowhere, so is tan.
    assert!(matches!(
        inherited(formula, tan, 4.0, 0.0),
        Verdict::Unbounded(_)
    ));
    // Near pi/2 the cosine's range holds zero: OpFDiv bounds nothing there.
    assert!(matches!(
        inherited(formula, tan, 1.5706, 0.0),
        Verdict::Unbounded(_)
    ));
}

#[test]
fn inherited_pow_chains_log2_a_product_and_exp2() {
    let pow = |a: &[f64]| rug::ops::Pow::pow(value(a[0]), a[1]);
    let cell = Requirement::Vulkan(Cell::Inherited("exp2(y * log2(x))".to_string()));
    let judged = |args: &[f64], device_result: f64| {
        judge(
            &cell,
            FloatType::Float,
            FloatType::Float,
            args,
            &pow,
            device_result,
            &PRESERVE,
            0,
        )
    };
    let ulp = pow2(-20);
    // log2(2) within 2^-21, times 3 within 1 ulp, then exp2 within 3 + 2*3 ulp: about 19 ulp
    // of 8 either side.
    assert!(passes(judged(&[2.0, 3.0], 8.0)));
    assert!(passes(judged(&[2.0, 3.0], 8.0 + 15.0 * ulp)));
    assert!(fails(judged(&[2.0, 3.0], 8.0 + 25.0 * ulp)));
    // log2 of a negative number: the formula is undefined.
    assert!(matches!(judged(&[-2.0, 2.0], 4.0), Verdict::Unbounded(_)));
    // 0^y: exp2(y * -inf) = 0, due exactly.
    assert!(passes(judged(&[0.0, 2.0], 0.0)));
    assert!(fails(judged(&[0.0, 2.0], 1.0)));
    // pow(inf, 0): the formula's exp2(0 * inf) is NaN, and NaN among the permitted values
    // allows any result; so for pow(0, NaN).
    for result in [1.0, f64::NAN, 0.0] {
        assert!(matches!(
            judged(&[f64::INFINITY, 0.0], result),
            Verdict::Unbounded(_)
        ));
    }
    assert!(matches!(
        judged(&[0.0, f64::NAN], 0.0),
        Verdict::Unbounded(_)
    ));
}

/// A float result of the table's formula for `function`, its arguments `args` (a vector's
/// components in turn), `exact` its exact value, `component` the result's component.
fn table_formula(
    function: &str,
    args: &[f64],
    exact: Float,
    device_result: f64,
    component: usize,
    modes: &Modes,
) -> Verdict {
    let table = crate::spec::table::builtin_in(
        &crate::spec::environment::VULKAN,
        crate::spec::environment::Revision::Spec2026,
        crate::spec::table::Profile::Full,
    );
    let cell = &table.row(function).unwrap().float32;
    assert!(matches!(cell, Requirement::Vulkan(Cell::Inherited(_))));
    judge(
        cell,
        FloatType::Float,
        FloatType::Float,
        args,
        &|_| exact.clone(),
        device_result,
        modes,
        component,
    )
}

/// The float nearest `v`.
fn f32_of(v: f64) -> f64 {
    v as f32 as f64
}

#[test]
fn inherited_fma_is_a_rounded_product_then_a_rounded_sum() {
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46. The product rounds to 1 + 2^-22 or 1 + 3 * 2^-23,
    // the sum is then exact: the range is [2^-22, 1.5 * 2^-22], E = 2^-23 - 2^-46, so
    // [2^-23 + 2^-45, 1.5 * 2^-22] is permitted.
    let x = 1.0 + pow2(-23);
    let exact: Float = value(x) * value(x) - 1.0;
    let at = |r| table_formula("fma", &[x, x, -1.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(pow2(-22))));
    assert!(passes(at(1.5 * pow2(-22))));
    assert!(passes(at(pow2(-23) + pow2(-44))));
    assert!(fails(at(pow2(-23))));
    assert!(fails(at(pow2(-21))));
    // 2^-70 * 2^-70 = 2^-140 is denormal: without DenormPreserve it may be flushed, and the
    // sum is then 2^-130 alone.
    let (tiny, z) = (pow2(-70), pow2(-130));
    let exact = value(tiny) * tiny + z;
    let flushing = Modes {
        denorm_preserve: false,
        ..PRESERVE
    };
    let at = |r, modes: &Modes| table_formula("fma", &[tiny, tiny, z], exact.clone(), r, 0, modes);
    assert!(passes(at(z + pow2(-140), &PRESERVE)));
    assert!(fails(at(z, &PRESERVE)));
    assert!(passes(at(z, &flushing)));
}

#[test]
fn inherited_asin_is_atan2_of_a_square_root_within_4096_ulp() {
    // asin(0.5) = pi/6 = 0.5236 (ulp 2^-24): atan2's 4096 ulp is 2^-12 = 2.441e-4; sqrt's
    // few ulp of 0.866 move atan2 by about 1e-7 more.
    let exact = value(0.5).asin();
    let pi_6 = exact.to_f64();
    let at = |r| table_formula("asin", &[0.5], exact.clone(), r, 0, &PRESERVE);
    // The formula evaluated literally in float passes.
    let literal = f32_of((0.5f32 as f64).atan2(f32_of((1.0f32 - 0.25f32).sqrt() as f64)));
    assert!(passes(at(literal)));
    assert!(passes(at(pi_6 + 2.4e-4)));
    assert!(passes(at(pi_6 - 2.4e-4)));
    assert!(fails(at(pi_6 + 2.5e-4)));
    assert!(fails(at(pi_6 - 2.5e-4)));
}

#[test]
fn inherited_sinh_chains_two_exps_a_difference_and_a_halving() {
    // sinh(1) = 1.1752: exp(1) within 5 ulp (2^-22 each), exp(-1) within 5 ulp (2^-25), the
    // difference and the halving each within 1 ulp (their directed roundings may add nothing):
    // 0.5 * (5 * 2^-22 + 5 * 2^-25) = 6.7e-7 <= E <= 0.5 * (6 * 2^-22 + 5 * 2^-25) + 2^-23
    // = 9.1e-7.
    let exact = value(1.0).sinh();
    let sinh = exact.to_f64();
    let at = |r| table_formula("sinh", &[1.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(f32_of(sinh))));
    assert!(passes(at(sinh + 6.5e-7)));
    assert!(passes(at(sinh - 6.5e-7)));
    assert!(fails(at(sinh + 9.6e-7)));
    assert!(fails(at(sinh - 9.6e-7)));
    // sinh(89) = 2.2e38: exp(89) = 4.5e38 overflows, which allows the largest float or inf,
    // so the range reaches from (FLT_MAX - exp(-89)) / 2 = 1.7e38 to inf.
    let exact = value(89.0).sinh();
    let at = |r| table_formula("sinh", &[89.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(f64::INFINITY)));
    assert!(passes(at(f64::from(f32::MAX))));
    assert!(passes(at(f32_of(exact.to_f64()))));
    assert!(fails(at(1.0e38)));
    // tanh = sinh / cosh, each through its own formula: about 6.7e-7 at 0.5.
    let exact = value(0.5).tanh();
    let tanh = exact.to_f64();
    let at = |r| table_formula("tanh", &[0.5], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(tanh + 4e-7)));
    assert!(fails(at(tanh + 2e-6)));
}

#[test]
fn inherited_vector_formulas_read_every_component() {
    // length(3, 4): dot = 25 exactly; inversesqrt(25) = 0.2 within 2 ulp (2^-26), so
    // 1 / it = 5 within 25 * 2^-25 = 7.45e-7, then OpFDiv's 2.5 ulp (2^-21): E = 1.94e-6,
    // 4.06 ulp of 5.
    let exact = Float::with_val(256, 5);
    let at = |r| table_formula("length", &[3.0, 4.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(5.0 + 4.0 * pow2(-21))));
    assert!(fails(at(5.0 + 5.0 * pow2(-21))));
    // distance((4, 6), (1, 2)) = length(3, 4).
    let at = |r| {
        table_formula(
            "distance",
            &[4.0, 6.0, 1.0, 2.0],
            exact.clone(),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(5.0 - 4.0 * pow2(-21))));
    assert!(fails(at(5.0 - 5.0 * pow2(-21))));
    // normalize(3, 4)'s second component 0.8: 4 * (0.2 within 2^-25), then OpFMul's rounding
    // (2^-24): E = 3 ulp of 0.8.
    let exact = Float::with_val(256, 4) / 5u32;
    let at = |r| table_formula("normalize", &[3.0, 4.0], exact.clone(), r, 1, &PRESERVE);
    let four_fifths = f32_of(0.8);
    assert!(passes(at(four_fifths)));
    assert!(passes(at(four_fifths + 2.0 * pow2(-24))));
    assert!(fails(at(four_fifths + 4.0 * pow2(-24))));
    // The first component is judged against 0.6, not 0.8.
    let exact = Float::with_val(256, 3) / 5u32;
    let at = |r| table_formula("normalize", &[3.0, 4.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(f32_of(0.6))));
    assert!(fails(at(four_fifths)));
    // cross((1, 2, 3), (4, 5, 6)) = (-3, 6, -3): every product and difference is exact.
    for (component, due) in [(0, -3.0), (1, 6.0), (2, -3.0)] {
        let args = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let at = |r| {
            table_formula(
                "cross",
                &args,
                Float::with_val(256, due),
                r,
                component,
                &PRESERVE,
            )
        };
        assert!(passes(at(due)), "{component}");
        assert!(fails(at(due + 4.0 * pow2(-21))), "{component}");
    }
    // OpDot((65504, inf), (-2, -2)) in half: 65504 * -2 overflows, which allows inf, and
    // inf - inf is NaN: any result (lavapipe gives NaN; the exact value is -inf).
    let minus_inf = Float::with_val(256, f64::NEG_INFINITY);
    let half_dot = judge(
        &Requirement::Vulkan(Cell::Inherited("sum(x[i] * y[i])".to_string())),
        FloatType::Half,
        FloatType::Half,
        &[-65504.0, f64::INFINITY, -2.0, -2.0],
        &|_| minus_inf.clone(),
        f64::NAN,
        &PRESERVE,
        0,
    );
    assert_eq!(half_dot, Verdict::Unbounded(inherited::NAN_PERMITTED));
    // length(0, 1677) in half: 1677^2 overflows, which allows inf, and sqrt(inf) is
    // 1.0 / inversesqrt(inf) = 1.0 / 0, a divisor OpFDiv bounds nothing for: not judged, as
    // distance(FLT_MAX, 0) in float (lavapipe gives inf for both).
    let length_half = judge(
        &Requirement::Vulkan(Cell::Inherited("sqrt(dot(x, x))".to_string())),
        FloatType::Half,
        FloatType::Half,
        &[0.0, 1677.0],
        &|_| Float::with_val(256, 1677),
        f64::INFINITY,
        &PRESERVE,
        0,
    );
    assert_eq!(length_half, Verdict::Unbounded(inherited::UNBOUNDED));
    let max = f64::from(f32::MAX);
    let at = |r| {
        table_formula(
            "distance",
            &[max, 0.0],
            Float::with_val(256, max),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(matches!(at(f64::INFINITY), Verdict::Unbounded(_)));
    // But length(0, 0) = sqrt(0) is due exactly.
    let at = |r| {
        table_formula(
            "length",
            &[0.0, 0.0],
            Float::with_val(256, 0),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(0.0)));
    assert!(fails(at(pow2(-149))));
    // cross's third component at (MAX, -MAX, inf), (-1, -1, -1): -MAX - MAX overflows to -inf.
    let args = [max, -max, f64::INFINITY, -1.0, -1.0, -1.0];
    let at = |r| {
        table_formula(
            "cross",
            &args,
            Float::with_val(256, -2.0 * max),
            r,
            2,
            &PRESERVE,
        )
    };
    assert!(passes(at(f64::NEG_INFINITY)));
    assert!(fails(at(0.0)));
    // OpDot(1.5, 2.5; 0.1, 0.1) = 0.4 + 1e-9: two rounded products, one rounded sum.
    let tenth = f32_of(0.1);
    let exact = Float::with_val(256, 1.5) * tenth + Float::with_val(256, 2.5) * tenth;
    let dot = exact.to_f64();
    let at = |r| {
        table_formula(
            "OpDot",
            &[1.5, 2.5, tenth, tenth],
            exact.clone(),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(f32_of(dot))));
    assert!(fails(at(dot + 4.0 * pow2(-25))));
}

#[test]
fn inherited_scalar_formulas_with_constants_bindings_and_truncation() {
    // degrees(1) = 180 / pi: C_180_pi is either neighbour of 180/pi, times 1.
    let exact = Float::with_val(256, 180) / Float::with_val(256, rug::float::Constant::Pi);
    let d = exact.to_f64();
    let ulp = pow2(-18);
    let (below, above) = ((d / ulp).floor() * ulp, (d / ulp).ceil() * ulp);
    let at = |r| table_formula("degrees", &[1.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(below)));
    assert!(passes(at(above)));
    assert!(fails(at(above + ulp)));
    // fmod(5.5, 2): 5.5 / 2 = 2.75 within 2.5 ulp truncates to 2: exactly 1.5.
    let at = |r| {
        table_formula(
            "fmod",
            &[5.5, 2.0],
            Float::with_val(256, 1.5),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(1.5)));
    assert!(fails(at(1.5 + pow2(-23))));
    // fmod(6 - 2^-21, 2): the quotient 3 - 2^-22 may round to 3, which truncates to 3: the
    // formula then gives -2^-21, so everything within 2 of the exact 2 - 2^-21 is permitted.
    let x = 6.0 - pow2(-21);
    let exact = Float::with_val(256, 2.0 - pow2(-21));
    let at = |r| table_formula("fmod", &[x, 2.0], exact.clone(), r, 0, &PRESERVE);
    assert!(passes(at(-pow2(-21))));
    assert!(passes(at(3.9)));
    assert!(fails(at(4.5)));
    // fmod(1, 2^-149): the divisor lies outside OpFDiv's range, so the formula bounds nothing
    // (lavapipe's literal evaluation gives 1 - inf = -inf there).
    let at = |r| {
        table_formula(
            "fmod",
            &[1.0, pow2(-149)],
            Float::with_val(256, 0),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(matches!(at(f64::NEG_INFINITY), Verdict::Unbounded(_)));
    // mix(1, 2, 0.1) = 1.1: 1 - 0.1 rounded (2^-24), 2 * 0.1 exact, the sum rounded (2^-23).
    let exact = Float::with_val(256, 1) + tenth_f32();
    let at = |r| {
        table_formula(
            "mix",
            &[1.0, 2.0, tenth_f32()],
            exact.clone(),
            r,
            0,
            &PRESERVE,
        )
    };
    let literal = f64::from((1.0f32 - 0.1f32) + 2.0f32 * 0.1f32);
    assert!(passes(at(literal)));
    assert!(fails(at(exact.to_f64() + 3.0 * pow2(-23))));
    // smoothstep(0, 1, 0.5) = 0.5: t = 0.5 / 1 within 2.5 ulp (2^-24), used three times as an
    // independent range, and three rounded operations: about 9 ulp of 0.5.
    let at = |r| {
        table_formula(
            "smoothstep",
            &[0.0, 1.0, 0.5],
            Float::with_val(256, 0.5),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(0.5)));
    assert!(passes(at(0.5 + 5.0 * pow2(-24))));
    assert!(fails(at(0.5 + 20.0 * pow2(-24))));
    // At an edge t is clamped to exactly 0: the result is 0.
    let at = |r| {
        table_formula(
            "smoothstep",
            &[0.0, 1.0, -0.5],
            Float::with_val(256, 0),
            r,
            0,
            &PRESERVE,
        )
    };
    assert!(passes(at(0.0)));
    assert!(fails(at(pow2(-20))));
}

fn tenth_f32() -> f64 {
    f32_of(0.1)
}

#[test]
fn absolute_errors_and_unjudged_reasons_follow_the_cell() {
    let sin = Requirement::Vulkan(Cell::AbsoluteInside {
        absolute: pow2(-11),
        low: -PI,
        high: PI,
    });
    assert!(error_is_absolute(&sin, &[1.0]));
    assert!(!error_is_absolute(&sin, &[4.0]));
    assert!(!error_is_absolute(&Requirement::Ulp(3.0), &[1.0]));
    // Outside the range sin's cell bounds nothing: a NaN judged there ranks as absolute.
    assert!(error_counts_as_absolute(&sin, &[f64::NAN]));
    assert!(!error_counts_as_absolute(&Requirement::Ulp(3.0), &[1.0]));
    let none = Modes {
        signed_zero_inf_nan_preserve: false,
        ..PRESERVE
    };
    assert_eq!(
        unjudged_reasons(&sin, &none),
        vec![NOT_PRESERVED, POISON, OUTSIDE_RANGE]
    );
    assert_eq!(
        unjudged_reasons(&Requirement::Ulp(3.0), &PRESERVE),
        vec![POISON]
    );
}

#[test]
fn a_nan_due_accepts_any_nan_under_every_cell() {
    let nan = |_: f64| Float::with_val(53, rug::float::Special::Nan);
    for requirement in [
        Requirement::CorrectlyRounded,
        Requirement::Exact,
        Requirement::Ulp(3.0),
    ] {
        assert!(passes(float(
            &requirement,
            nan,
            &[f64::NAN],
            f64::NAN,
            &PRESERVE
        )));
        assert!(fails(float(&requirement, nan, &[f64::NAN], 1.0, &PRESERVE)));
    }
}

/// pow's proven passes ([`inherited::passes_by_root_cell`], the root's cell widened by the
/// spread log2's cell gives exp2's argument) against the full interval evaluation, on random
/// half, float and RelaxedPrecision float inputs (bases near 1, inside [0.5, 2] and far from
/// it, exponents tiny or not) with results spread from the correctly rounded one to 10 times the root's own cell: no
/// pass the evaluation refuses, the same error, and most of its passes decided.
#[test]
fn pow_s_proven_passes_are_the_evaluation_s_and_most_of_them() {
    let formula = "exp2(y * log2(x))";
    let requirement = Requirement::Vulkan(Cell::Inherited(formula.to_string()));
    let mut draws = crate::num::test_draws::Xorshift(0x9e37_79b9_7f4a_7c15);
    let mut random = move || draws.next_unit();
    for (element, unit) in [
        (FloatType::Half, FloatType::Half),
        (FloatType::Float, FloatType::Float),
        (FloatType::Float, FloatType::Half),
    ] {
        let precision = unit.precision() as i32;
        // p (1 - 2^-(|y| c)), c log2's cell at x (its absolute bound in [0.5, 2], else 3 ulp).
        let inside = if unit == FloatType::Half {
            pow2(-7)
        } else {
            pow2(-21)
        };
        let widened = |x: f64, y: f64, p: f64| {
            let c = if (0.5..=2.0).contains(&x) {
                inside
            } else {
                3.0 * pow2(x.log2().abs().log2().floor() as i32 - precision + 1)
            };
            p.abs() * (1.0 - (-(y.abs() * c)).exp2())
        };
        let mut refused = 0;
        let (mut passes_judged, mut decided, mut beyond_own_cell) = (0, 0, 0);
        for k in 0..600 {
            let x = element.round(match k % 3 {
                0 => 1.0 + (random() - 0.5) * pow2(-6),
                1 => 0.5 + 1.5 * random(),
                _ => pow2((random() * 20.0 - 10.0).floor() as i32) * (1.0 + random()),
            });
            // An exponent that keeps p a normal value well inside the range.
            let reach = f64::from(element.emax()) * 0.9 / x.log2().abs().max(pow2(-20));
            // Every fourth exponent tiny: p within half a double ulp of 1 (a float's), whose
            // side of 1 the pass must take from the signs.
            let y = element.round(if k % 4 == 3 {
                (random() - 0.5) * pow2(-60 - (random() * 60.0) as i32)
            } else {
                (random() * 2.0 - 1.0) * reach.min(f64::from(1 << 12))
            });
            let exact = |a: &[f64]| {
                rug::ops::Pow::pow(Float::with_val(256, a[0]), Float::with_val(256, a[1]))
            };
            let p = exact(&[x, y]);
            let approximation = p.to_f64();
            if approximation.is_nan() || approximation.abs() < pow2(element.emin()) {
                continue;
            }
            let binade = approximation.abs().log2().floor() as i32;
            // exp2's own cell: 1 + 2|t| ulp in half's column, 3 + 2|t| in float's.
            let constant = if unit == FloatType::Half { 1.0 } else { 3.0 };
            let own = (constant + 2.0 * (y * x.log2()).abs()) * pow2(binade - precision + 1);
            for modes in [
                PRESERVE,
                Modes {
                    denorm_preserve: false,
                    ..PRESERVE
                },
            ] {
                for step in 0..12 {
                    let side = if step % 2 == 0 { 1.0 } else { -1.0 };
                    // Half the results up to 10 times exp2's own cell, half around the bound
                    // the pass proves (0.9 to 1.2 times it).
                    let distance = if step == 0 {
                        0.0
                    } else if step < 6 {
                        random() * 10.0 * own
                    } else {
                        (0.9 + 0.3 * random()) * (own + widened(x, y, approximation))
                    };
                    let result = element.round(approximation + side * distance);
                    let full = judge(
                        &requirement,
                        element,
                        unit,
                        &[x, y],
                        &exact,
                        result,
                        &modes,
                        0,
                    );
                    let fast = inherited::passes_by_root_cell(
                        formula,
                        element,
                        unit,
                        &[x, y],
                        approximation,
                        result,
                        modes.denorm_preserve,
                    );
                    let context = format!(
                        "{element:?} unit {unit:?} {modes:?} pow({x:e}, {y:e}) = {approximation:e} -> {result:e}: fast {fast:?}, full {full:?}"
                    );
                    if let Some(error) = fast {
                        let Verdict::Pass(full_error) = full else {
                            panic!("{context}");
                        };
                        assert!(
                            (error - full_error).abs() <= pow2(-20) * error.max(1.0),
                            "{context}"
                        );
                        decided += usize::from(step < 6);
                        beyond_own_cell += usize::from((result - approximation).abs() > own);
                    }
                    passes_judged += usize::from(step < 6 && matches!(full, Verdict::Pass(_)));
                    refused += usize::from(matches!(full, Verdict::Fail(_)));
                }
            }
        }
        let share = decided as f64 / passes_judged as f64;
        eprintln!(
            "pow {element:?} unit {unit:?}: {decided} of {passes_judged} passes up to 10 times exp2's own \
             cell decided, {beyond_own_cell} passes beyond it; {refused} failures"
        );
        assert!(refused > 0, "{element:?} {unit:?}");
        assert!(share >= 0.8, "{element:?} {unit:?}: {share}");
        assert!(beyond_own_cell > 0, "{element:?} {unit:?}");
    }
}

/// asinh's decided inputs ([`inherited::unbounded_at`] and [`inherited::passes_by_root_cell`])
/// against the full interval evaluation, where the new proofs reach: negative arguments
/// around the magnitude where x + sqrt(x * x + 1.0) crosses zero under sqrt's spread, past
/// the bound of the old proof (2^60, sqrt(M) / 2, RelaxedPrecision's 1 / (4 d)), around the
/// magnitudes where x * x + 1.0 overflows and where inversesqrt leaves OpFDiv's divisor
/// range, tiny and denormal arguments and those where the sum crosses 0.5; half, float,
/// RelaxedPrecision float and double (whose new regions go to the evaluation), with and
/// without DenormPreserve. Results from the correctly rounded one outwards, 1, 2, 4, ...
/// encodings on each side while the pass is proven, then eight between the last proven and
/// the first not: every verdict the evaluation's, error included, and nearly every input
/// decided at its correctly rounded result.
#[test]
fn asinh_s_decided_inputs_are_the_evaluation_s_and_nearly_all() {
    let formula = "log(x + sqrt(x * x + 1.0))";
    let requirement = Requirement::Vulkan(Cell::Inherited(formula.to_string()));
    let exact = |a: &[f64]| Float::with_val(256, a[0]).asinh();
    let mut draws = crate::num::test_draws::Xorshift(0x2545_f491_4f6c_dd1d);
    let mut random = move || draws.next_unit();
    for (element, unit) in [
        (FloatType::Half, FloatType::Half),
        (FloatType::Float, FloatType::Float),
        (FloatType::Float, FloatType::Half),
        (FloatType::Double, FloatType::Double),
    ] {
        let precision = unit.precision() as i32;
        let emax = element.emax();
        // |x| where the sum's low end crosses zero: near 2^((p - 1) / 2) / 2.
        let crossing = pow2((precision - 1) / 2) / 2.0;
        // |x| where x * x + 1.0 overflows: sqrt(G'), G' the grid value below the largest.
        let overflow = ((2.0 - pow2(2 - precision)) * pow2(emax)).sqrt();
        let (_, divisor_low, _) = match crate::spec::table::builtin_in(
            &crate::spec::environment::VULKAN,
            crate::spec::environment::Revision::Spec2026,
            crate::spec::table::Profile::Full,
        )
        .row("OpFDiv")
        .map(|row| crate::spec::vulkan::column(row, element, unit != element).0)
        {
            Some(Requirement::Vulkan(Cell::UlpForDivisor { ulp, low, high })) => {
                (*ulp, *low, *high)
            }
            other => panic!("{other:?}"),
        };
        let mut magnitudes: Vec<f64> = Vec::new();
        for _ in 0..120 {
            magnitudes.push(crossing * pow2(-3) * 64.0f64.powf(random()));
        }
        for _ in 0..60 {
            let low = f64::from(element.emin() - precision);
            magnitudes.push((low + (f64::from(emax) + 1.0 - low) * random()).exp2());
        }
        for edge in [
            overflow,
            1.0 / divisor_low,
            0.25 / divisor_low,
            pow2(60),
            element.max_finite().sqrt() / 2.0,
            0.75,
            pow2(element.emin()),
        ] {
            let edge = element.round(edge);
            if !edge.is_finite() {
                continue;
            }
            for steps in -3i64..=3 {
                let bits = element.to_bits(edge) as i64 + steps;
                magnitudes.push(element.from_bits(bits.max(1) as u64));
            }
        }
        let away = |v: f64, steps: i64| {
            let bits = element.to_bits(v.abs()) as i64 + steps;
            element.from_bits(bits.max(0) as u64).copysign(v)
        };
        let (mut inputs, mut decided, mut compared, mut unbounded) = (0, 0, 0, 0);
        let (mut zeros, mut zeros_decided) = (0, 0);
        for magnitude in magnitudes {
            let magnitude = element.round(magnitude);
            if !magnitude.is_finite() || magnitude > element.max_finite() {
                continue;
            }
            for x in [-magnitude, magnitude] {
                let approximation = exact(&[x]).to_f64();
                let correct = element.round(approximation);
                for modes in [
                    PRESERVE,
                    Modes {
                        denorm_preserve: false,
                        ..PRESERVE
                    },
                ] {
                    let full = |result: f64| {
                        judge(&requirement, element, unit, &[x], &exact, result, &modes, 0)
                    };
                    let context = |result: f64, fast: &dyn std::fmt::Debug| {
                        format!(
                            "{element:?} unit {unit:?} {modes:?} asinh({x:e}) = {approximation:e} -> {result:e}: fast {fast:?}, full {:?}",
                            full(result)
                        )
                    };
                    inputs += 1;
                    if inherited::unbounded_at(formula, element, unit, &[x], modes.denorm_preserve)
                    {
                        decided += 1;
                        unbounded += 1;
                        for result in [correct, 0.0, -correct, f64::INFINITY] {
                            compared += 1;
                            assert!(
                                matches!(full(result), Verdict::Unbounded(_)),
                                "{}",
                                context(result, &"unbounded")
                            );
                        }
                        continue;
                    }
                    let check = |result: f64| {
                        let fast = inherited::passes_by_root_cell(
                            formula,
                            element,
                            unit,
                            &[x],
                            approximation,
                            result,
                            modes.denorm_preserve,
                        )?;
                        let Verdict::Pass(error) = full(result) else {
                            panic!("{}", context(result, &fast));
                        };
                        // A double's error is measured from `approximation`, the exact value
                        // rounded once: within half an ulp of the evaluation's (the tier
                        // leaves double results to it).
                        let slack = if element == FloatType::Double {
                            0.5
                        } else {
                            0.0
                        };
                        assert!(
                            (fast - error).abs() <= slack + pow2(-20) * error.max(1.0),
                            "{}",
                            context(result, &fast)
                        );
                        Some(fast)
                    };
                    if check(correct).is_none() {
                        continue;
                    }
                    decided += 1;
                    compared += 1;
                    // lavapipe's result for a tiny x: log(1.0) = 0, inside log's absolute bound.
                    if magnitude < pow2(-(precision + 2)) {
                        zeros += 1;
                        zeros_decided += usize::from(check(0.0).is_some());
                    }
                    for side in [1i64, -1] {
                        let (mut last, mut step) = (0i64, 1i64);
                        while step < 1 << 40 {
                            let result = away(correct, side * step);
                            if !result.is_finite() || check(result).is_none() {
                                break;
                            }
                            compared += 1;
                            last = step;
                            step *= 2;
                        }
                        for i in 1..8 {
                            let result = away(correct, side * (last + (step - last) * i / 8));
                            compared += usize::from(check(result).is_some());
                        }
                    }
                }
            }
        }
        let share = decided as f64 / inputs as f64;
        eprintln!(
            "asinh {element:?} unit {unit:?}: {decided} of {inputs} inputs decided ({unbounded} \
             unbounded), {compared} verdicts compared, zero for a tiny x decided {zeros_decided} \
             of {zeros}"
        );
        if element != FloatType::Double {
            assert!(share >= 0.95, "{element:?} {unit:?}: {share}");
            assert!(unbounded > 0, "{element:?} {unit:?}");
            assert_eq!(zeros_decided, zeros, "{element:?} {unit:?}");
        }
    }
}

// The literal evaluation of double inherited cells (`literal`) beside the interval
// evaluation it stands in for.
/// Arguments the way sweeps and hard cases give them: any double, moderate ones, small
/// integers, zeros, denormals, the edges of OpFDiv's divisor range and of the bounds'
/// 2^±1000, the largest values, and near-equal pairs (cancellation).
fn argument(draws: &mut Xorshift, previous: Option<f64>) -> f64 {
    let sign = if draws.next_bits() & 1 == 0 {
        1.0
    } else {
        -1.0
    };
    let near = |v: f64, draws: &mut Xorshift| {
        f64::from_bits(
            v.to_bits()
                .wrapping_add(draws.next_bits() % 9)
                .wrapping_sub(4),
        )
    };
    match draws.next_bits() % 12 {
        0 => f64::from_bits(draws.next_bits() & !(0x7ff << 52) | (draws.next_bits() % 0x7ff) << 52),
        1 | 2 => {
            sign * (draws.next_unit() + 0.5) * 2f64.powi((draws.next_bits() % 121) as i32 - 60)
        }
        3 => sign * (draws.next_bits() % 9) as f64,
        4 => sign * 0.0,
        5 => sign * f64::from_bits(draws.next_bits() % (1 << 52)),
        6 => {
            let edge = [
                -126, 126, -252, 252, -500, 500, -999, 999, 1000, -1000, 1023,
            ][(draws.next_bits() % 11) as usize];
            sign * near(2f64.powi(edge), draws)
        }
        7 => sign * near(f64::MAX, draws),
        _ => match previous {
            Some(v) if v.is_finite() => near(v, draws),
            _ => sign * draws.next_unit(),
        },
    }
}

/// The formula's exact value at `args` (MPFR, IEEE's rules), if it has one.
fn exact_of(
    formula: &crate::spec::vulkan::formula::Formula,
    args: &[f64],
    component: usize,
) -> Option<rug::Float> {
    inherited::exact_value(formula, args, component)
}

/// The table's double formula of `function`'s inherited cell.
fn double_formula(function: &str) -> &'static crate::spec::vulkan::formula::Formula {
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    let row = table.row(function).expect("a Vulkan row");
    let Requirement::Vulkan(Cell::Inherited(text)) = column(row, FloatType::Double, false).0 else {
        panic!("{function}: an inherited double cell");
    };
    crate::spec::vulkan::formula::of_table(text).expect("parsed")
}

/// The interval evaluation's verdict on a double result (`judge_by_ranges` in double).
fn by_ranges(
    formula: &crate::spec::vulkan::formula::Formula,
    args: &[f64],
    component: usize,
    exact: &rug::Float,
    device_result: f64,
    denorm_preserve: bool,
) -> Verdict {
    inherited::judge_by_ranges(
        formula,
        FloatType::Double,
        FloatType::Double,
        args,
        exact,
        device_result,
        component,
        denorm_preserve,
        true,
    )
}

/// The literal evaluation's `decision` is the interval evaluation's verdict `full`: a pass
/// at `error`, or its stop at a divisor outside OpFDiv's range (where a zero argument's exact
/// zero is not due).
fn literal_agrees(
    decision: Option<literal::Literal>,
    full: &Verdict,
    error: f64,
    exact: &rug::Float,
    args: &[f64],
    context: impl Fn() -> String,
) {
    match decision {
        Some(literal::Literal::Pass) => assert_eq!(*full, Verdict::Pass(error), "{}", context()),
        Some(literal::Literal::Unbounded) if !(exact.is_zero() && args.contains(&0.0)) => {
            assert_eq!(
                *full,
                Verdict::Unbounded(inherited::UNBOUNDED),
                "{}",
                context()
            )
        }
        _ => {}
    }
}

/// Wherever the literal evaluation decides a double result (a pass, or the evaluation's
/// stop at a divisor outside OpFDiv's range), the interval evaluation gives the same
/// verdict, with and without DenormPreserve; and it decides most of the results a device
/// gives (the literal values, and results near them).
#[test]
fn literal_decisions_are_the_interval_evaluation_s() {
    let mut draws = Xorshift(0x1157_e4a1);
    let functions: [(&str, &[usize]); 12] = [
        ("fma", &[1]),
        ("mix", &[1]),
        ("smoothstep", &[1]),
        ("fmod", &[1]),
        ("sqrt", &[1]),
        ("radians", &[1]),
        ("degrees", &[1]),
        ("length", &[1, 2, 3, 4]),
        ("distance", &[1, 2, 4]),
        ("OpDot", &[2, 3, 4]),
        ("normalize", &[1, 2, 4]),
        ("cross", &[3]),
    ];
    for (function, widths) in functions {
        let formula = double_formula(function);
        let parameters = formula.parameters().len();
        for &width in widths {
            let (mut decided, mut results) = (0usize, 0usize);
            // Of the inputs, by the correctly rounded result (what a device gives most).
            let (mut inputs_decided, mut inputs) = (0usize, 0usize);
            for _ in 0..1500 {
                let mut args = Vec::with_capacity(parameters * width);
                for _ in 0..parameters * width {
                    let previous = args.last().copied();
                    args.push(argument(&mut draws, previous));
                }
                let component = (draws.next_bits() % width as u64) as usize;
                let Some(exact) = exact_of(formula, &args, component) else {
                    continue;
                };
                let literal_values: Vec<f64> = literal::values(formula, &args, component)
                    .map_or(Vec::new(), |values| values.to_vec());
                let mut results_here = Vec::new();
                for c in literal_values.iter().copied().chain([exact.to_f64()]) {
                    for step in [0i64, 1, -1, 3, -40] {
                        results_here.push(f64::from_bits(c.to_bits().wrapping_add(step as u64)));
                    }
                }
                results_here.push(argument(&mut draws, None));
                for device_result in results_here {
                    let rounded = device_result == exact.to_f64();
                    let decision = literal::decide(
                        formula,
                        &args,
                        component,
                        FloatType::Double,
                        FloatType::Double,
                        device_result,
                        None,
                    );
                    let special = args.iter().any(|a| !a.is_finite()) || !exact.is_finite();
                    results += 1;
                    if special {
                        continue;
                    }
                    let error =
                        crate::num::ulp::ulp_error(device_result, &exact, FloatType::Double);
                    for denorm_preserve in [true, false] {
                        let full = by_ranges(
                            formula,
                            &args,
                            component,
                            &exact,
                            device_result,
                            denorm_preserve,
                        );
                        let context = || {
                            format!(
                                "{function} w{width} {args:?} [{component}] -> {device_result:e}"
                            )
                        };
                        literal_agrees(decision, &full, error, &exact, &args, context);
                    }
                    decided += usize::from(decision.is_some());
                    inputs += usize::from(rounded);
                    inputs_decided += usize::from(rounded && decision.is_some());
                }
            }
            let share = inputs_decided as f64 / inputs.max(1) as f64;
            eprintln!(
                "{function} w{width}: {decided} of {results} results decided, \
                 {inputs_decided} of {inputs} correctly rounded ones ({share:.2})"
            );
            // With the inner ranges, most correctly rounded results of every function.
            assert!(share > 0.85, "{function} w{width}: {share}");
        }
    }
}

/// `v` moved `k` values of `element` (its bit patterns: across zero and past the largest value
/// as the encoding runs).
fn stepped(element: FloatType, v: f64, k: i64) -> f64 {
    match element {
        FloatType::Double => f64::from_bits(v.to_bits().wrapping_add(k as u64)),
        FloatType::Float => f64::from(f32::from_bits((v as f32).to_bits().wrapping_add(k as u32))),
        FloatType::Half => {
            half::f16::from_bits(half::f16::from_f64(v).to_bits().wrapping_add(k as u16)).to_f64()
        }
    }
}

/// An argument of `element`, the way sweeps give them: any value of the type, moderate ones,
/// small integers, zeros, denormals, the edges of OpFDiv's divisor range, the largest values,
/// and values near the previous one (cancellation).
fn argument_in(element: FloatType, draws: &mut Xorshift, previous: Option<f64>) -> f64 {
    let sign = if draws.next_bits() & 1 == 0 {
        1.0
    } else {
        -1.0
    };
    let span = element.emax() - element.emin();
    let value = match draws.next_bits() % 10 {
        0..=2 => {
            sign * (draws.next_unit() + 0.5)
                * pow2((draws.next_bits() % span as u64) as i32 + element.emin())
        }
        3 => sign * (draws.next_bits() % 9) as f64,
        4 => sign * 0.0,
        5 => sign * draws.next_unit() * pow2(element.emin()),
        6 => {
            let edge =
                [element.emin(), element.emax(), -14, 14, 0][(draws.next_bits() % 5) as usize];
            sign * pow2(edge) * (1.0 + (draws.next_bits() % 5) as f64 * pow2(-8))
        }
        7 => sign * element.max_finite() * (1.0 - draws.next_unit() * pow2(-4)),
        _ => match previous {
            Some(v) if v.is_finite() => stepped(element, v, (draws.next_bits() % 9) as i64 - 4),
            _ => sign * draws.next_unit(),
        },
    };
    element.round(value)
}

/// Float and half results, as [`literal_decisions_are_the_interval_evaluation_s`] holds
/// double ones: wherever the literal evaluation (each value rounded to the type once more,
/// and the exact value's nearest value of the type) decides a result, the interval
/// evaluation in that type gives the same verdict, with and without DenormPreserve; and it
/// decides most correctly rounded results.
#[test]
fn float_and_half_literal_decisions_are_the_interval_evaluation_s() {
    let mut draws = Xorshift(0x0f1a_7a11);
    let functions: [(&str, &[usize]); 12] = [
        ("fma", &[1]),
        ("mix", &[1]),
        ("smoothstep", &[1]),
        ("fmod", &[1]),
        ("sqrt", &[1]),
        ("radians", &[1]),
        ("degrees", &[1]),
        ("length", &[1, 3]),
        ("distance", &[1, 4]),
        ("OpDot", &[2, 4]),
        ("normalize", &[1, 3]),
        ("cross", &[3]),
    ];
    let table = builtin_in(&VULKAN, Revision::Spec2026, Profile::Full);
    for element in [FloatType::Float, FloatType::Half] {
        for (function, widths) in functions {
            let row = table.row(function).expect("a Vulkan row");
            let Requirement::Vulkan(Cell::Inherited(text)) = column(row, element, false).0 else {
                panic!("{function}: an inherited cell");
            };
            let formula = crate::spec::vulkan::formula::of_table(text).expect("parsed");
            let parameters = formula.parameters().len();
            for &width in widths {
                let (mut decided, mut inputs_decided, mut inputs) = (0usize, 0usize, 0usize);
                for _ in 0..600 {
                    let mut args = Vec::with_capacity(parameters * width);
                    for _ in 0..parameters * width {
                        let previous = args.last().copied();
                        args.push(argument_in(element, &mut draws, previous));
                    }
                    let component = (draws.next_bits() % width as u64) as usize;
                    let Some(exact) = inherited::exact_value(formula, &args, component) else {
                        continue;
                    };
                    let special = args.iter().any(|a| !a.is_finite()) || !exact.is_finite();
                    if special {
                        continue;
                    }
                    let correct = element.round(exact.to_f64());
                    let mut results = Vec::new();
                    for step in [0i64, 1, -1, 3, -40] {
                        results.push(stepped(element, correct, step));
                    }
                    results.push(argument_in(element, &mut draws, None));
                    for device_result in results {
                        let decision = literal::decide(
                            formula,
                            &args,
                            component,
                            element,
                            element,
                            device_result,
                            Some(element.neighbours(exact.to_f64())),
                        );
                        let error = crate::num::ulp::ulp_error(device_result, &exact, element);
                        for denorm_preserve in [true, false] {
                            let full = inherited::judge_by_ranges(
                                formula,
                                element,
                                element,
                                &args,
                                &exact,
                                device_result,
                                component,
                                denorm_preserve,
                                true,
                            );
                            let context = || {
                                format!(
                                    "{function} {element:?} w{width} {args:?} [{component}] -> {device_result:e}"
                                )
                            };
                            literal_agrees(decision, &full, error, &exact, &args, context);
                        }
                        decided += usize::from(decision.is_some());
                        let rounded = device_result == correct;
                        inputs += usize::from(rounded);
                        inputs_decided += usize::from(rounded && decision.is_some());
                    }
                }
                let share = inputs_decided as f64 / inputs.max(1) as f64;
                eprintln!(
                    "{function} {element:?} w{width}: {decided} decided, \
                     {inputs_decided} of {inputs} correctly rounded ones ({share:.2})"
                );
                // Scalars: a third at least; vectors, whose many arguments here often hold
                // one near the largest value or a denormal (their squares leave the type),
                // some.
                let enough = if width == 1 {
                    share > 0.3
                } else {
                    inputs_decided >= 20
                };
                assert!(
                    inputs > 100 && enough,
                    "{function} {element:?} w{width}: {share}"
                );
            }
        }
    }
}

/// The literal evaluation decides where an intermediate overflows or a square vanishes, as
/// the interval evaluation does with and without DenormPreserve: an infinity among the
/// literal values is the overflow allowance's (fma, OpDot and cross past the largest value;
/// normalize of a value whose square rounds to zero, whose inversesqrt is +inf), and a
/// divisor inf stops sqrt of a square that vanishes (distance of two close tiny values).
#[test]
fn literal_decisions_reach_overflows_and_vanishing_squares() {
    let tiny = 1e-200;
    use literal::Literal::{Pass, Unbounded};
    // (function, arguments, component, result, the literal decision, whether the ranges
    // permit the result where the literal evaluation leaves it)
    type Case = (
        &'static str,
        Vec<f64>,
        usize,
        f64,
        Option<literal::Literal>,
        bool,
    );
    let cases: [Case; 10] = [
        ("normalize", vec![tiny], 0, f64::INFINITY, Some(Pass), true),
        (
            "normalize",
            vec![-tiny],
            0,
            f64::NEG_INFINITY,
            Some(Pass),
            true,
        ),
        // The wrong infinity fails; 1 (the ranges reach it) is no literal value.
        ("normalize", vec![-tiny], 0, f64::INFINITY, None, false),
        ("normalize", vec![tiny], 0, 1.0, None, true),
        (
            "normalize",
            vec![tiny, -tiny],
            1,
            f64::NEG_INFINITY,
            Some(Pass),
            true,
        ),
        (
            "fma",
            vec![1e200, 1e200, 1.0],
            0,
            f64::INFINITY,
            Some(Pass),
            true,
        ),
        (
            "fma",
            vec![-1e200, 1e200, 1.0],
            0,
            f64::INFINITY,
            None,
            false,
        ),
        (
            "OpDot",
            vec![1e300, -2.0, -1e10, 3.0],
            0,
            f64::NEG_INFINITY,
            Some(Pass),
            true,
        ),
        (
            "cross",
            vec![1.0, 1e300, 2.0, 3.0, -1e300, 5e10],
            0,
            f64::INFINITY,
            Some(Pass),
            true,
        ),
        (
            "distance",
            vec![tiny, 3.0 * tiny],
            0,
            0.0,
            Some(Unbounded),
            false,
        ),
    ];
    for (function, args, component, device_result, expected, permitted) in cases {
        let formula = double_formula(function);
        let context = format!("{function} {args:?} [{component}] -> {device_result:e}");
        let decision = literal::decide(
            formula,
            &args,
            component,
            FloatType::Double,
            FloatType::Double,
            device_result,
            None,
        );
        assert_eq!(decision, expected, "{context}");
        let exact = exact_of(formula, &args, component).expect("an exact value");
        let error = crate::num::ulp::ulp_error(device_result, &exact, FloatType::Double);
        for denorm_preserve in [true, false] {
            let full = by_ranges(
                formula,
                &args,
                component,
                &exact,
                device_result,
                denorm_preserve,
            );
            let due = match expected {
                Some(Unbounded) => Verdict::Unbounded(inherited::UNBOUNDED),
                Some(Pass) => Verdict::Pass(error),
                None if permitted => Verdict::Pass(error),
                None => Verdict::Fail(error),
            };
            assert_eq!(full, due, "{context}, DenormPreserve {denorm_preserve}");
        }
    }
}

/// length's, distance's and acosh's stops that [`inherited::unbounded_at`] proves, against the
/// interval evaluation: components around the magnitudes where dot's sum of squares leaves the
/// finite range and where it falls below the smallest normal value (acosh's x around the
/// first), widths 1 to 4; half, float and RelaxedPrecision float, with and without
/// DenormPreserve. Every input it decides is `Verdict::Unbounded` at every result tried, and
/// it decides inputs on both sides of both edges.
#[test]
fn length_distance_and_acosh_stops_are_the_evaluation_s() {
    fn sum_of_squares(args: &[f64], parameters: usize) -> Float {
        let width = args.len() / parameters;
        let mut sum = Float::with_val(256, 0);
        for i in 0..width {
            let mut d = Float::with_val(256, args[i]);
            if parameters == 2 {
                d -= args[width + i];
            }
            sum += d.square();
        }
        sum
    }
    let length = |args: &[f64]| sum_of_squares(args, 1).sqrt();
    let distance = |args: &[f64]| sum_of_squares(args, 2).sqrt();
    let acosh = |args: &[f64]| Float::with_val(256, args[0]).acosh();
    type ExactOf<'a> = &'a dyn Fn(&[f64]) -> Float;
    let cases: [(&str, usize, ExactOf); 3] = [
        ("sqrt(dot(x, x))", 1, &length),
        ("length(x - y)", 2, &distance),
        ("log(x + sqrt(x * x - 1.0))", 1, &acosh),
    ];
    let mut draws = Xorshift(0x1e57_d157_ac05_0001);
    let mut random = move || draws.next_unit();
    for (element, unit) in [
        (FloatType::Half, FloatType::Half),
        (FloatType::Float, FloatType::Float),
        (FloatType::Float, FloatType::Half),
    ] {
        let edges = [element.max_finite().sqrt(), pow2(element.emin()).sqrt()];
        for (formula, parameters, exact) in cases {
            let requirement = Requirement::Vulkan(Cell::Inherited(formula.to_string()));
            let acosh = parameters == 1 && formula.starts_with("log");
            let (mut inputs, mut unbounded) = (0, [0; 4]);
            for width in if acosh { 1..=1 } else { 1..=4 } {
                for set in 0..240 {
                    let side = set % 2;
                    let edge = if acosh { edges[0] } else { edges[side] };
                    let args: Vec<f64> = (0..width * parameters)
                        .map(|_| {
                            let sign = if acosh || random() < 0.5 { 1.0 } else { -1.0 };
                            element.round(sign * edge * (random() * 2.0 - 1.0).exp2())
                        })
                        .collect();
                    let x = exact(&args);
                    let correct = element.round(x.to_f64());
                    for modes in [
                        PRESERVE,
                        Modes {
                            denorm_preserve: false,
                            ..PRESERVE
                        },
                    ] {
                        inputs += 1;
                        if !inherited::unbounded_at(
                            formula,
                            element,
                            unit,
                            &args,
                            modes.denorm_preserve,
                        ) {
                            continue;
                        }
                        let above = if acosh { args[0] } else { x.to_f64() } >= edge;
                        unbounded[2 * side + usize::from(above)] += 1;
                        for result in [correct, 0.0, f64::INFINITY, element.max_finite()] {
                            let verdict =
                                judge(&requirement, element, unit, &args, exact, result, &modes, 0);
                            assert!(
                                matches!(verdict, Verdict::Unbounded(_)),
                                "{element:?} unit {unit:?} {modes:?} {formula} at {args:?} -> {result:e}: {verdict:?}"
                            );
                        }
                    }
                }
            }
            eprintln!("{element:?} {unit:?} {formula}: {unbounded:?} of {inputs} unbounded");
            // Past the largest value on the first edge; below the smallest normal on the
            // second (acosh: the first edge only).
            assert!(
                unbounded[1] > inputs / 20,
                "{formula} {element:?}: {unbounded:?}"
            );
            assert!(
                acosh || unbounded[2] > inputs / 40,
                "{formula} {element:?}: {unbounded:?}"
            );
        }
    }
}
