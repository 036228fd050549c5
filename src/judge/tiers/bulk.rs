//! What a sweep may decide in bulk, found once per row instead of once per input: the columns
//! of correctly rounded (or exact) values whose matching results the fast tiers would pass
//! first, and the verdicts of NaN, pole and overflow results.

use crate::judge::tiers::FastRule;
use crate::judge::Rules;
use crate::num::fp::FloatType;
use crate::reference::exact::ExactFn;
use crate::reference::{binding, FastFn};
use crate::report::stats::FastVerdict;
use crate::spec::registry::{Output, OutputCheck};
use crate::spec::table::Requirement;

/// A row's [`Rules::fast_verdict_with`] for inputs whose correctly rounded float and double are
/// known ([`Rules::known_columns_verdict`]): an exhaustive float sin sweep leaves about one
/// input in 25 to judge one by one, and finding the rule and the tiers again for each was most
/// of their cost.
#[derive(Clone, Copy)]
pub struct KnownColumnsVerdict<'a> {
    rules: &'a Rules,
    output: &'a Output,
    double_tier: FastFn,
    rule: FastRule,
}

impl KnownColumnsVerdict<'_> {
    /// `fast_verdict_with`'s verdict on `device_result` at `args`, whose correctly rounded
    /// float is `correctly_rounded` and correctly rounded double `double`: the steps
    /// [`Rules::tier_verdict`] takes for its one output.
    #[inline]
    pub fn verdict(
        &self,
        args: &[f64],
        correctly_rounded: f64,
        double: f64,
        device_result: f64,
    ) -> Option<FastVerdict> {
        if correctly_rounded.is_finite() && device_result == correctly_rounded {
            return Some(FastVerdict::CorrectlyRounded);
        }
        let rule = FastRule {
            fails_beyond: self.rules.failure_is_final(args, device_result),
            ..self.rule
        };
        self.rules.double_tier_verdict(
            self.output,
            self.double_tier,
            args,
            double,
            device_result,
            rule,
        )
    }
}

/// A float remquo row's verdict in bulk ([`Rules::remquo_column_verdict`]), for inputs whose
/// remainder and quotient bits [`crate::reference::remquo_column`] gives.
#[derive(Clone, Copy)]
pub struct RemquoColumnVerdict {
    /// `2^quotient_bits`.
    modulus: i64,
}

impl RemquoColumnVerdict {
    /// Whether [`Rules::fast_verdict_with`] passes the device's `device_remainder` and
    /// `device_quotient` at `(x, y)` with no error, where [`crate::reference::remquo_column`]
    /// gives `remainder` and `low_bits` there (not NaN): [`Rules::remquo_verdict`]'s pass,
    /// whose remainder is that one and whose `n0` that many modulo 128 (its proof and the
    /// column's). `false` where the column left the input to the per-input verdict.
    #[inline(always)]
    pub fn passes(
        &self,
        (x, y): (f64, f64),
        remainder: f64,
        low_bits: f64,
        device_remainder: f64,
        device_quotient: f64,
    ) -> bool {
        !remainder.is_nan()
            && super::exact_tier::remquo_passes(
                remainder,
                low_bits as i64,
                x.is_sign_negative() != y.is_sign_negative(),
                self.modulus,
                device_remainder,
                device_quotient,
            )
    }
}

impl Rules {
    /// Float remquo's rows whose verdict a sweep may decide in bulk: where
    /// [`Rules::fast_verdict_with`] reaches [`Rules::remquo_verdict`] for every input of
    /// finite `x` and non-zero finite `y` (no Vulkan mode, no Table 5 rule; under
    /// `-cl-finite-math-only` the remainder is then finite, so [`Rules::finite_math_verdict`]
    /// goes on to it) and that verdict applies (at most 7 quotient bits, the quotient the
    /// second output). The test `remquo_column_verdicts_are_fast_verdicts` holds them equal.
    pub fn remquo_column_verdict(&self) -> Option<RemquoColumnVerdict> {
        let Requirement::RemquoExact { quotient_bits } = self.requirement else {
            return None;
        };
        let quotient_second = matches!(
            self.outputs.as_slice(),
            [first, second]
                if first.check == OutputCheck::Table
                    && second.check == OutputCheck::QuotientLowBits
        );
        (self.vulkan.is_none()
            && self.relaxed.is_none()
            && self.element == FloatType::Float
            && quotient_bits <= 7
            && quotient_second)
            .then_some(RemquoColumnVerdict {
                modulus: 1 << quotient_bits,
            })
    }

    /// [`Rules::fast_verdict_with`] found once for a row instead of once per input, where a
    /// sweep knows each input's correctly rounded float and double from its columns: a float
    /// function of one table output with a correctly rounded double tier and no exact tier,
    /// judged by its requirement's own rule (not relaxed, not finite-math-only, no remquo or
    /// mad requirement). There `fast_verdict_with` always reaches [`Rules::tier_verdict`]'s
    /// one output, whose steps [`KnownColumnsVerdict::verdict`] takes with the lookups made;
    /// `None` elsewhere. The test `known_columns_verdicts_are_fast_verdicts` holds the two
    /// equal on every function and profile that has one.
    pub fn known_columns_verdict(&self) -> Option<KnownColumnsVerdict<'_>> {
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        let requirement_only = self.relaxed.is_none()
            && !self.finite_math_only
            && !matches!(
                self.requirement,
                Requirement::RemquoExact { .. } | Requirement::MadFmaOrMulAdd
            );
        if !requirement_only
            || self.element != FloatType::Float
            || output.check != OutputCheck::Table
            || binding::exact(output.reference).is_some()
        {
            return None;
        }
        binding::float_tier(output)?;
        Some(KnownColumnsVerdict {
            rules: self,
            output,
            double_tier: binding::fast_tier(output)?,
            rule: self.requirement_rule()?,
        })
    }

    /// Whether a NaN from the device where [`Rules::correctly_rounded_fn`]'s value is NaN is
    /// what [`Rules::fast_verdict_with`] passes with no error: where the fast tier is a
    /// correctly rounded double, NaN exactly where the function is (rootn's near tier is not
    /// NaN at rootn(0, 0), where its float function is); never under `-cl-finite-math-only`,
    /// where MPFR's path makes such an input undefined.
    pub fn correctly_rounded_nan_passes(&self) -> bool {
        self.fast_rule().is_some()
            && self.correctly_rounded_fn().is_some()
            && self
                .outputs
                .first()
                .is_some_and(|output| binding::fast_tier(output).is_some())
    }

    /// For a rule with [`Rules::correctly_rounded_fn`], whose value at `args` is the infinity
    /// `infinity`: the verdict [`Rules::fast_verdict_with`] gives a device result equal to it,
    /// where that verdict is the overflow one (`FastRule::overflow`) or a pole's pass with no
    /// error, else `None`. It is what the fast verdict computes, by the same functions,
    /// without the correctly rounded value it already has: the double approximation, then
    /// `infinite_verdict` where that is infinite and `output_verdict` where it is finite
    /// (where the function's bound shows the value past double, [`binding::past_double`],
    /// `infinite_verdict`'s overflow without evaluating the approximation). On
    /// that path neither looks at the rule but for the overflow verdict itself, so whether an
    /// input is decided holds for every rule of the function and type. Lets a sweep decide
    /// those inputs in bulk (exp or sinh of a large argument: a quarter of a random sweep's;
    /// lgamma's poles: a tenth).
    pub fn infinity_verdict(&self, args: &[f64], infinity: f64) -> Option<FastVerdict> {
        let rule = self.fast_rule()?;
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        let fast = binding::fast_tier(output)?;
        if !infinity.is_infinite() {
            return None;
        }
        // Past double by the function's own bound: the double tier's infinity, with the
        // overflow flag, as `infinite_verdict` would find it, without evaluating it.
        let past_double = binding::past_double(output.reference).is_some_and(|past| past(args));
        if past_double && args.iter().all(|x| x.is_finite() && *x != 0.0) {
            return Some(rule.overflow());
        }
        self.double_tier_verdict(output, fast, args, fast(args), infinity, rule)
            .filter(|verdict| *verdict == rule.overflow() || *verdict == FastVerdict::Pass(0.0))
    }

    /// The verdict the fast tiers give a correctly rounded overflow under this rule
    /// ([`Rules::infinity_verdict`]), where they apply it.
    pub fn overflow_of_rule(&self) -> Option<FastVerdict> {
        self.fast_rule().map(FastRule::overflow)
    }

    /// The function whose value is the correctly rounded result in `element` where
    /// [`Rules::fast_verdict_with`] would find a device result equal to it (and finite)
    /// [`FastVerdict::CorrectlyRounded`] before anything else could decide: a rule of one
    /// table output, its own rule applied under round to nearest, no exact tier, and a
    /// correctly rounded fast tier in the format (the float version for float, the double
    /// one for double); under `-cl-finite-math-only` (no Table 5 rule) only where every
    /// argument and the value are finite ([`Rules::bulk_needs_finite_arguments`]). Lets a
    /// sweep compute a column of these once and compare results to it, skipping the fast
    /// tiers' per-input work for the results that match.
    pub fn correctly_rounded_fn(&self) -> Option<FastFn> {
        self.correctly_rounded_tier(false)
    }

    /// [`Rules::correctly_rounded_fn`] for a function of several outputs (sincos, lgamma_r):
    /// per checked output, its position and the function whose value is its correctly rounded
    /// result, where [`Rules::fast_verdict_with`] finds results that all equal theirs (and
    /// are finite) [`FastVerdict::CorrectlyRounded`]: every output a table output with a
    /// correctly rounded fast tier in the format and no exact tier, or an integer output the
    /// rule leaves unchecked (lgamma_r's sign in its implementation-defined cell), the rule
    /// applied by the fast tiers.
    pub fn correctly_rounded_fns(&self) -> Option<Vec<(usize, FastFn)>> {
        let rule = self.bulk_rule()?;
        if self.outputs.len() < 2 {
            return None;
        }
        let mut columns = Vec::new();
        for (position, output) in self.outputs.iter().enumerate() {
            if output.check == OutputCheck::Integer && rule.measured {
                continue;
            }
            if output.check != OutputCheck::Table || binding::exact(output.reference).is_some() {
                return None;
            }
            columns.push((position, self.correctly_rounded_in_format(output)?));
        }
        (!columns.is_empty()).then_some(columns)
    }

    /// For a function with an exact tier that may decline an input (fdim's inexact
    /// differences): the function whose value is the correctly rounded result in `element`
    /// where the exact tier declines, which [`Rules::fast_verdict_with`] then compares a
    /// result with first, as [`Rules::correctly_rounded_fn`]'s. Lets a sweep decide those
    /// inputs in bulk too.
    pub fn correctly_rounded_fn_where_exact_declines(&self) -> Option<FastFn> {
        self.correctly_rounded_tier(true)
    }

    /// The correctly rounded fast tier of a one-output rule applied by the fast tiers, for a
    /// function with an exact tier (`exact`) or without one.
    fn correctly_rounded_tier(&self, exact: bool) -> Option<FastFn> {
        let [output] = self.outputs.as_slice() else {
            return None;
        };
        if self.bulk_rule().is_none()
            || output.check != OutputCheck::Table
            || binding::exact(output.reference).is_some() != exact
        {
            return None;
        }
        self.correctly_rounded_in_format(output)
    }

    /// `output`'s correctly rounded fast tier in the rule's format: the float version for
    /// float, the double one for double; none for half.
    pub(in crate::judge) fn correctly_rounded_in_format(&self, output: &Output) -> Option<FastFn> {
        match self.element {
            FloatType::Float => binding::float_tier(output),
            FloatType::Double => binding::fast_tier(output),
            FloatType::Half => None,
        }
    }

    /// Per output, the function whose value is the exact result and whether the output is an
    /// integer, where [`Rules::fast_verdict_with`] would find device results that are all
    /// those values `Pass(0.0)` before anything else could decide (see
    /// [`crate::judge::exact_output_matches`] for what is the same): the rule's own rule
    /// applied (as for [`Rules::correctly_rounded_fn`]) and an exact tier for every output
    /// (frexp's two, or modf's). Lets a sweep decide the inputs whose every result is exact in
    /// one pass.
    pub fn exact_fns(&self) -> Option<Vec<(ExactFn, bool)>> {
        self.bulk_rule()?;
        self.outputs
            .iter()
            .map(|output| {
                let exact = binding::exact(output.reference)?;
                match output.check {
                    OutputCheck::Table => Some((exact, false)),
                    OutputCheck::Integer => Some((exact, true)),
                    OutputCheck::QuotientLowBits => None,
                }
            })
            .collect()
    }

    /// The rule the fast tiers apply to a table output wherever the arguments and results may
    /// be anything, as a sweep's bulk passes of NaN passes, poles and overflows need it
    /// ([`Rules::correctly_rounded_nan_passes`], [`Rules::infinity_verdict`]). `None` where
    /// they apply none: a relaxed or finite-math-only build (whose inputs
    /// [`Rules::fast_verdict_with`] decides one by one, where it proves them defined, and whose
    /// finite ones [`Rules::bulk_rule`] lets a sweep decide in bulk), or no
    /// [`Rules::requirement_rule`].
    pub(in crate::judge) fn fast_rule(&self) -> Option<FastRule> {
        if self.finite_math_only {
            return None;
        }
        self.bulk_rule()
    }

    /// The rule a sweep's bulk passes apply to a table output where every argument is finite
    /// ([`Rules::bulk_needs_finite_arguments`]): [`Rules::fast_rule`]'s, and under
    /// `-cl-finite-math-only` without a Table 5 rule the requirement's too. There
    /// [`Rules::finite_math_verdict`] gives an input with finite arguments and a correctly
    /// rounded (or exact) result that is finite the requirement's own verdict, which for a
    /// result equal to that value is the bulk pass's.
    fn bulk_rule(&self) -> Option<FastRule> {
        if self.relaxed.is_some() {
            return None;
        }
        self.requirement_rule()
    }

    /// Whether a sweep's bulk passes may decide only inputs whose every argument is finite,
    /// and only where the result they compare with is finite: under `-cl-finite-math-only`,
    /// where MPFR's path makes every other input undefined ([`Rules::judge_exactly_with`]).
    pub fn bulk_needs_finite_arguments(&self) -> bool {
        self.finite_math_only
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::FastReference;
    use crate::report::stats::FastVerdict;
    use crate::spec::registry::FUNCTIONS;

    /// Where [`RemquoColumnVerdict::passes`] holds, [`Rules::fast_verdict_with`] passes with no
    /// error, and where it does not, the input is one the column leaves undecided or a verdict
    /// other than that pass: registry remquo under 7, 3 and 0 quotient bits, with and without
    /// finite math, on special values and random pairs, with the device's remainder the
    /// column's, its neighbours and its negation, and quotients of every low bits, signs and
    /// multiples of 128.
    #[test]
    fn remquo_column_verdicts_are_fast_verdicts() {
        let function = FUNCTIONS
            .iter()
            .find(|function| function.name == "remquo")
            .expect("remquo");
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.5,
            -3.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::from(f32::MAX),
            f64::from(f32::from_bits(1)),
        ];
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for a in specials {
            for b in specials {
                x.push(a);
                y.push(b);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..3000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let b = f32::from_bits((state >> 32) as u32);
            let a = if state.is_multiple_of(3) {
                b * (state % 1000) as f32 * 0.5
            } else {
                f32::from_bits(state as u32)
            };
            x.push(f64::from(a));
            y.push(f64::from(b));
        }
        let (mut remainders, mut low_bits) = (Vec::new(), Vec::new());
        crate::reference::remquo_column::remquof(&x, &y, &mut remainders, &mut low_bits);
        let mut passes = 0;
        for quotient_bits in [7, 3, 0] {
            for finite_math_only in [false, true] {
                let rules = Rules {
                    finite_math_only,
                    ..Rules::of_test(
                        function.name,
                        function.outputs.to_vec(),
                        Requirement::RemquoExact { quotient_bits },
                        FloatType::Float,
                    )
                };
                let verdict = rules.remquo_column_verdict().expect("a remquo row");
                for i in 0..x.len() {
                    let args = [x[i], y[i]];
                    let (remainder, low) = (remainders[i], low_bits[i]);
                    let next = f64::from(f32::from_bits((remainder as f32).to_bits() + 1));
                    for device_remainder in [remainder, -remainder, next, f64::NAN] {
                        for quotient in [0.0, low, low + 1.0, low + 128.0, 128.0, 5.0] {
                            for device_quotient in [quotient, -quotient] {
                                let decided = verdict.passes(
                                    (x[i], y[i]),
                                    remainder,
                                    low,
                                    device_remainder,
                                    device_quotient,
                                );
                                let expected = rules.fast_verdict_with(
                                    &mut FastReference::new(),
                                    &args,
                                    &[device_remainder, device_quotient],
                                );
                                if decided {
                                    passes += 1;
                                    assert_eq!(
                                        expected,
                                        Some(FastVerdict::Pass(0.0)),
                                        "remquo{args:?} = ({device_remainder:e}, \
                                         {device_quotient}), {quotient_bits} bits"
                                    );
                                } else if !remainder.is_nan() {
                                    assert_ne!(
                                        expected,
                                        Some(FastVerdict::Pass(0.0)),
                                        "remquo{args:?} = ({device_remainder:e}, \
                                         {device_quotient}), {quotient_bits} bits"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(passes > 10_000, "{passes}");
    }
}
