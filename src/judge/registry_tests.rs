//! Checks of the function registry against what the judge relies on: the fast tiers agree
//! with MPFR, and the Table-5-only functions are the ones only the relaxed table bounds.
//! (Here because they read `reference`, `sweep` and `judge::relaxed`, which the spec layer
//! may not import.)

use crate::spec::relaxed_table as relaxed;
use crate::num::fp::FloatType;
use crate::reference::{self, binding};
use crate::spec::registry::{self, FUNCTIONS};
use crate::spec::signature::{Shape, ValueKind};
use crate::spec::table::{builtin_in, Profile, Revision};
use crate::sweep;

/// The Table-5-only functions are exactly the registry's functions with a Table 5 row and
/// no Table 3 or 4 row, in both revisions.
#[test]
fn table_5_only_functions_have_a_table_5_row_and_no_other() {
    for revision in [Revision::Spec2017, Revision::Spec2026] {
        for name in registry::table_5_only() {
            assert!(registry::find(name).is_some(), "{name} is not registered");
            assert!(
                relaxed::builtin_in(revision).row(name).is_some(),
                "{name}: no Table 5 row ({revision})"
            );
        }
        let only_in_table_5: Vec<&str> = FUNCTIONS
            .iter()
            .filter(|f| {
                Profile::ALL
                    .into_iter()
                    .all(|profile| builtin_in(revision, profile).row(f.name).is_none())
            })
            .filter(|f| relaxed::builtin_in(revision).row(f.name).is_some())
            .map(|f| f.name)
            .collect();
        assert_eq!(only_in_table_5, registry::table_5_only(), "{revision}");
    }
}

/// The fast tier is CORE-MATH's (or the host's IEEE) correctly rounded double; MPFR's
/// exact value rounded to double must be the same number on every sampled half, float and
/// double input (for double, MPFR rounded once into double's own format, subnormals
/// included).
#[test]
fn fast_tier_and_mpfr_agree_on_a_large_sample_for_every_function_that_uses_it() {
    let mut checked = 0;
    for function in FUNCTIONS {
        for output in function.outputs {
            let Some(fast) = binding::fast_tier(output) else {
                continue;
            };
            for element in [FloatType::Float, FloatType::Half, FloatType::Double] {
                let arguments = match function.shape {
                    Shape::Unary | Shape::WithFloatOut => 1,
                    Shape::Binary => 2,
                    Shape::Ternary => 3,
                    other => panic!("{}: a fast tier for shape {other:?}", function.name),
                };
                let kinds = vec![ValueKind::FloatGentype; arguments];
                let seed = sweep::unit_seed(17, function.name, element, 1);
                let columns = sweep::generate(function, element, &kinds, 4000, 1, seed);
                for index in 0..columns[0].len() {
                    let args: Vec<f64> = columns.iter().map(|c| c[index]).collect();
                    let operands: Vec<_> = args.iter().map(|x| reference::operand(*x)).collect();
                    let expected = if element == FloatType::Double {
                        reference::correctly_rounded(
                            binding::mpfr(output.reference),
                            &operands,
                            element,
                        )
                        .to_f64()
                    } else {
                        reference::high_precision(
                            binding::mpfr(output.reference),
                            &operands,
                            element,
                        )
                        .to_f64()
                    };
                    let got = fast(&args);
                    let agree = (expected.is_nan() && got.is_nan()) || expected == got;
                    assert!(
                        agree,
                        "{}({args:?}) for {element}: CORE-MATH {got:e}, MPFR {expected:e}",
                        function.name
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}
