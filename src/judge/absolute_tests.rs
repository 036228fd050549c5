//! The 2026 text's absolute tolerances (mix, smoothstep; cross and dot's max² · K · EPSILON).

use super::tests::rules;
use super::*;
use crate::report::stats::{Outcome, UnitStats};
use crate::spec::reference_id::ReferenceId;
use crate::spec::table::{Epsilon, Linear};

/// lgamma's cells are implementation-defined: measured, never failed. lgamma(FLT_MAX) is
/// about 2^134, so +inf is its correctly rounded float: no error, not an infinite one;
/// a finite result there is measured as it is.
#[test]
fn an_implementation_defined_cell_takes_a_correctly_rounded_overflow_as_no_error() {
    let lgamma = Rules {
        function: "lgamma",
        ..rules(
            ReferenceId::Lgamma,
            Requirement::ImplementationDefined,
            false,
        )
    };
    let max = f64::from(f32::MAX);
    let overflow = lgamma.judge(0, &[max], &[f64::INFINITY]);
    assert_eq!(overflow.outcome, Outcome::Pass);
    let mut stats = UnitStats::default();
    stats.record(overflow);
    assert_eq!(stats.max_error, 0.0);
    let finite = lgamma.judge(1, &[max], &[max]);
    assert_eq!(finite.outcome, Outcome::Measured);
    assert!(finite.error > 1.0);
    let wrong_sign = lgamma.judge(2, &[max], &[f64::NEG_INFINITY]);
    assert_eq!(wrong_sign.outcome, Outcome::Measured);
    assert!(wrong_sign.error.is_infinite());
}

#[test]
fn absolute_tolerance_passes_within_and_fails_beyond() {
    let mix = rules(ReferenceId::Mix, Requirement::Absolute(1e-3), false);
    // mix(1, 2, 0.25) = 1.25 exactly.
    let near = f64::from(1.25f32 + 5e-4);
    let case = mix.judge(0, &[1.0, 2.0, 0.25], &[near]);
    assert_eq!(case.outcome, Outcome::Pass);
    assert!(case.absolute);
    assert!((case.error - 5e-4).abs() < 1e-7, "{}", case.error);
    let far = f64::from(1.25f32 + 2e-3);
    assert_eq!(
        mix.judge(0, &[1.0, 2.0, 0.25], &[far]).outcome,
        Outcome::Fail
    );
    assert_eq!(
        mix.judge(0, &[1.0, 2.0, 0.25], &[f64::NAN]).outcome,
        Outcome::Fail
    );
}

#[test]
fn max_squared_tolerance_scales_with_the_largest_argument() {
    // fmax(x, y) stands in for a dot product: the tolerance is max² · 3 · FLT_EPSILON.
    let requirement = Requirement::AbsoluteMaxSquared {
        operations: Linear {
            constant: 3.0,
            per_component: 0.0,
        },
        epsilon: Epsilon::Flt,
    };
    let rules = rules(ReferenceId::Fmax, requirement, false);
    let tolerance = 64.0 * 3.0 * 2f64.powi(-23);
    let args = [8.0, 1.0];
    let within = 8.0 + tolerance * 0.5;
    assert_eq!(rules.judge(0, &args, &[within]).outcome, Outcome::Pass);
    let beyond = 8.0 + tolerance * 4.0;
    assert_eq!(rules.judge(0, &args, &[beyond]).outcome, Outcome::Fail);
}
