//! A check of the function registry against what the judge relies on: the fast tiers agree
//! with MPFR. (Here because it reads `reference` and `sweep`, which the spec layer may not
//! import.)

use crate::num::fp::FloatType;
use crate::reference::{self, binding};
use crate::spec::registry::FUNCTIONS;
use crate::spec::signature::{Shape, ValueKind};
use crate::sweep;

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
