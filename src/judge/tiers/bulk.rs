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

impl Rules {
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
    /// `infinite_verdict` where that is infinite and `output_verdict` where it is finite. On
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
