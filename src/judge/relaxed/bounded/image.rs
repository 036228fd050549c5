//! One operation's exact image over argument spans, enclosed in doubles: `interval`'s
//! ranges as [`Doubles`] follows them, each end moved outwards (`exact_span`), and the image
//! of spans that MPFR's ranges hold, bounded from inside (`inner_image`). Where an operation's
//! exact value rises, falls or repeats is its Table 5 catalog row's [`Direction`].

use super::*;

/// The double tier of the registry's function `instruction` (Table 5 names its instructions
/// as the registry does), for one output: the exact value correctly rounded to double
/// (`false`), or within [`reference::NEAR_ERROR`] of it, relative (`true`, rootn's).
fn point_value(instruction: &str) -> Option<(FastFn, bool)> {
    // Looked up for every operation of a formula at every input: with SipHash the lookup
    // took 8% of relaxed pow's CPU. The keys are the registry's own names.
    static TIERS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, (FastFn, bool)>> =
        std::sync::OnceLock::new();
    let tiers = TIERS.get_or_init(|| {
        crate::spec::registry::FUNCTIONS
            .iter()
            .filter_map(|function| {
                let [output] = function.outputs else {
                    return None;
                };
                let tier = match (binding::fast_tier(output), binding::near_tier(output)) {
                    (Some(double), _) => (double, false),
                    (None, Some(near)) => (near, true),
                    (None, None) => return None,
                };
                Some((function.name, tier))
            })
            .collect()
    });
    tiers.get(instruction).copied()
}

/// The lowest double at least half a double ulp below `v`, a value rounded once to nearest
/// from an exact one (two steps down: at a power of two the step below is half the gap).
/// -inf bounds everything from below.
pub(super) fn lower(v: f64) -> Result<f64, Stop> {
    if v.is_finite() {
        Ok(v.next_down().next_down())
    } else if v == f64::NEG_INFINITY {
        Ok(v)
    } else {
        Err(Stop::Unknown)
    }
}

/// +inf bounds everything from above.
pub(super) fn upper(v: f64) -> Result<f64, Stop> {
    if v.is_finite() {
        Ok(v.next_up().next_up())
    } else if v == f64::INFINITY {
        Ok(v)
    } else {
        Err(Stop::Unknown)
    }
}

/// [`lower`] and [`upper`] of a value rounded once to nearest; an infinity stands for a value
/// past the largest double (or that infinity).
fn enclosure(value: f64) -> Result<Span, Stop> {
    if value == f64::INFINITY {
        Ok((f64::MAX, value))
    } else if value == f64::NEG_INFINITY {
        Ok((value, f64::MIN))
    } else {
        Ok((lower(value)?, upper(value)?))
    }
}

pub(super) fn hull(a: Span, b: Span) -> Span {
    (a.0.min(b.0), a.1.max(b.1))
}

pub(super) fn is_point(span: &Span) -> bool {
    span.0 == span.1
}

/// sin and cos over any range, with room for MPFR's ends, which may lie 2^-175 beyond ±1.
const UNIT: Span = (-1.0 - f64::EPSILON, 1.0 + f64::EPSILON);

/// `f` at the corners of two spans: multiplication, or division away from a zero divisor.
pub(super) fn corners(f: FastFn, a: Span, b: Span) -> Result<Span, Stop> {
    let mut result: Option<Span> = None;
    for x in [a.0, a.1] {
        for y in [b.0, b.1] {
            let span = enclosure(f(&[x, y]))?;
            result = Some(result.map_or(span, |so_far| hull(so_far, span)));
        }
    }
    result.ok_or(Stop::Unknown)
}

/// How `instruction`'s exact value moves with its argument (its Table 5 catalog row).
fn direction(instruction: &str) -> Direction {
    catalog(instruction).map_or(Direction::Other, |entry| entry.direction)
}

/// The registry's correctly rounded double of `instruction` (not a near approximation, whose
/// values are no roundings to nearest).
fn correctly_rounded(instruction: &str) -> Result<FastFn, Stop> {
    match point_value(instruction) {
        Some((f, false)) => Ok(f),
        _ => Err(Stop::Unknown),
    }
}

/// An operation's value at points, enclosed.
fn at(instruction: &str, points: &[f64]) -> Result<Span, Stop> {
    let (f, near) = point_value(instruction).ok_or(Stop::Unknown)?;
    let value = f(points);
    if near {
        let error = value.abs() * 4.0 * reference::NEAR_ERROR;
        return Ok((lower(value - error)?, upper(value + error)?));
    }
    enclosure(value)
}

/// `interval::exact_range`, enclosed: the same case for each instruction, each end moved
/// outwards; `Unknown` wherever MPFR's may be unbounded or NaN.
pub(super) fn exact_span(instruction: &str, spans: &[Span]) -> Result<Span, Stop> {
    let increasing = |(lo, hi): Span| Ok((at(instruction, &[lo])?.0, at(instruction, &[hi])?.1));
    match instruction {
        "OpFAdd" => {
            let (a, b) = (spans[0], spans[1]);
            Ok((lower(a.0 + b.0)?, upper(a.1 + b.1)?))
        }
        "OpFSub" => {
            let (a, b) = (spans[0], spans[1]);
            Ok((lower(a.0 - b.1)?, upper(a.1 - b.0)?))
        }
        "OpFMul" => corners(fast::mul, spans[0], spans[1]),
        "OpFDiv" => {
            let holds_zero = |(lo, hi): Span| lo <= 0.0 && hi >= 0.0;
            match (holds_zero(spans[0]), holds_zero(spans[1])) {
                (true, true) => Err(Stop::Unknown),
                (false, true) => Ok(EVERYTHING),
                _ => corners(fast::div, spans[0], spans[1]),
            }
        }
        "fabs" => {
            let (lo, hi) = spans[0];
            Ok(if lo >= 0.0 {
                (lo, hi)
            } else if hi <= 0.0 {
                (-hi, -lo)
            } else {
                (0.0, hi.max(-lo))
            })
        }
        _ => match direction(instruction) {
            Direction::Monotonic { domain, .. } if domain.excludes(&spans[0].0, &spans[0].1) => {
                Err(Stop::Unknown)
            }
            Direction::Monotonic { rising: true, .. } => increasing(spans[0]),
            Direction::Monotonic { rising: false, .. } => {
                let (lo, hi) = spans[0];
                Ok((at(instruction, &[hi])?.0, at(instruction, &[lo])?.1))
            }
            Direction::Periodic => periodic(instruction, spans[0]),
            Direction::Other | Direction::Bounded { .. } if spans.iter().all(is_point) => {
                let points: Vec<f64> = spans.iter().map(|s| s.0).collect();
                at(instruction, &points)
            }
            // MPFR's box, exactly.
            Direction::Bounded { low, high } => Ok((low, high)),
            Direction::Other => Err(Stop::Unknown),
        },
    }
}

/// `bound(v)` for a finite `v`; an infinite end stays as it is (MPFR keeps it).
pub(super) fn keep_infinite(v: f64, bound: impl Fn(f64) -> Result<f64, Stop>) -> Result<f64, Stop> {
    if v.is_infinite() {
        Ok(v)
    } else {
        bound(v)
    }
}

/// Bounds on `interval::exact_range` from inside, as [`Doubles::inner`] takes them: its range
/// holds the exact image of MPFR's argument ranges, which `inner` bounds (lo <= l, h <= hi
/// for each). A function monotonic in each argument (the sign of the others known from
/// `outer` where it matters) takes l at the arguments' l or h, whichever lowers it, and h
/// likewise; any other, only at arguments that are intervals (l <= h: points MPFR's ranges
/// hold), at their corners.
pub(super) fn inner_image(instruction: &str, outer: &[Span], inner: &[Span]) -> Result<Span, Stop> {
    // The upper end of a value's enclosure bounds lo from above, the lower end hi from below.
    // An infinity from an infinite argument is exact (sqrt, log, exp at +inf, a sum); from
    // finite ones it stands for a value past the largest double.
    let enclose = |value: f64, points: &[f64]| {
        if value.is_infinite() && points.iter().any(|p| p.is_infinite()) {
            Ok::<Span, Stop>((value, value))
        } else {
            enclosure(value)
        }
    };
    let value_at = |f: FastFn, points: &[f64]| enclose(f(points), points);
    // An argument that is one double, in MPFR's range and in its bounds alike: a function
    // need not be monotonic in it.
    let fixed = |i: usize| outer[i].0 == outer[i].1 && inner[i] == outer[i];
    let sign = |i: usize| {
        let ((lo, hi), (l, h)) = (outer[i], inner[i]);
        if lo > 0.0 && l > 0.0 && h > 0.0 {
            Ok(1.0)
        } else if hi < 0.0 && l < 0.0 && h < 0.0 {
            Ok(-1.0)
        } else {
            Err(Stop::Unknown)
        }
    };
    // `f` increasing in each argument where `rising` says so, decreasing in the others.
    let monotonic = |f: FastFn, rising: &[bool]| {
        let pick = |low: bool| -> Vec<f64> {
            inner
                .iter()
                .zip(rising)
                .map(|(&(l, h), &up)| if up == low { l } else { h })
                .collect()
        };
        Ok((value_at(f, &pick(true))?.1, value_at(f, &pick(false))?.0))
    };
    match instruction {
        "OpFAdd" => {
            let (a, b) = (inner[0], inner[1]);
            Ok((
                enclose(a.0 + b.0, &[a.0, b.0])?.1,
                enclose(a.1 + b.1, &[a.1, b.1])?.0,
            ))
        }
        "OpFSub" => {
            let (a, b) = (inner[0], inner[1]);
            Ok((
                enclose(a.0 - b.1, &[a.0, b.1])?.1,
                enclose(a.1 - b.0, &[a.1, b.0])?.0,
            ))
        }
        // Everything times a range whose ends are nonzero: MPFR's corners hold both
        // infinities (a zero end would make NaN).
        "OpFMul" if (0..2).any(|i| inner[i] == EVERYTHING) => {
            let nonzero_ends = |i: usize| {
                let ((lo, hi), (l, h)) = (outer[i], inner[i]);
                lo > 0.0 || hi < 0.0 || (l < 0.0 && h > 0.0)
            };
            if nonzero_ends(0) && nonzero_ends(1) {
                Ok(EVERYTHING)
            } else {
                Err(Stop::Unknown)
            }
        }
        // a·b rises in a where b > 0, in b where a > 0; a / b in a where b > 0, in b where
        // a < 0 (b of one sign, as MPFR's range is unbounded where it may be zero).
        "OpFMul" => {
            let rising_a = fixed(0) || sign(1)? > 0.0;
            let rising_b = fixed(1) || sign(0)? > 0.0;
            monotonic(fast::mul, &[rising_a, rising_b])
        }
        // A divisor whose range holds 0: MPFR's quotient is anything where the dividend's
        // does too, else unbounded.
        "OpFDiv" if inner[1].0 <= 0.0 && inner[1].1 >= 0.0 => {
            let ((lo, hi), (l, h)) = (outer[0], inner[0]);
            if l <= 0.0 && h >= 0.0 {
                Err(Stop::Anything)
            } else if lo > 0.0 || hi < 0.0 {
                Ok(EVERYTHING)
            } else {
                Err(Stop::Unknown)
            }
        }
        // Infinite ends of both, the divisor of one sign: MPFR's corners hold ∞/∞, NaN.
        "OpFDiv"
            if (0..2).all(|i| inner[i].0 == f64::NEG_INFINITY || inner[i].1 == f64::INFINITY)
                && (outer[1].0 > 0.0 || outer[1].1 < 0.0) =>
        {
            Err(Stop::Anything)
        }
        "OpFDiv" => {
            let rising_a = sign(1)? > 0.0;
            let rising_b = fixed(1) || sign(0)? < 0.0;
            monotonic(fast::div, &[rising_a, rising_b])
        }
        "fabs" => {
            let (lo, hi) = outer[0];
            let (l, h) = inner[0];
            if lo >= 0.0 {
                Ok((l, h))
            } else if hi <= 0.0 {
                Ok((-h, -l))
            } else {
                Err(Stop::Unknown)
            }
        }
        _ => match direction(instruction) {
            // MPFR's range of an argument outside the domain (a negative one, or one beyond
            // ±1) is anything. Elsewhere its argument's range lies in the domain, where it is
            // a range at all: where it is anything, so is the formula's, and no bound given
            // here is relied on (`inner`).
            Direction::Monotonic { domain, .. } if domain.excludes(&inner[0].0, &inner[0].1) => {
                Err(Stop::Anything)
            }
            Direction::Monotonic { rising, .. } => {
                monotonic(correctly_rounded(instruction)?, &[rising])
            }
            // Points of MPFR's range more than 4 apart: a pole lies between, so MPFR's exact
            // range is everything.
            _ if instruction == "tan"
                && inner[0].0 <= inner[0].1
                && inner[0].1 - inner[0].0 > 4.0 =>
            {
                Ok(EVERYTHING)
            }
            // Rising on a span without a pole, which holds MPFR's range and the bounds.
            _ if instruction == "tan"
                && periodic("tan", outer[0]).is_ok()
                && [inner[0].0, inner[0].1]
                    .iter()
                    .all(|v| outer[0].0 <= *v && *v <= outer[0].1) =>
            {
                monotonic(correctly_rounded(instruction)?, &[true])
            }
            _ if inner.iter().all(|(l, h)| l <= h) => inner_corners(instruction, inner),
            _ => Err(Stop::Unknown),
        },
    }
}

/// [`inner_image`] of an operation that need not be monotonic, over spans that are intervals
/// (l <= h: points MPFR's ranges hold): the lowest upper end and the highest lower end of its
/// enclosed values at their corners.
fn inner_corners(instruction: &str, inner: &[Span]) -> Result<Span, Stop> {
    let mut result: Option<Span> = None;
    let corners = 1usize << inner.len();
    for corner in 0..corners {
        let points: Vec<f64> = inner
            .iter()
            .enumerate()
            .map(|(i, &(l, h))| if corner >> i & 1 == 0 { l } else { h })
            .collect();
        let (lo, hi) = at(instruction, &points)?;
        result = Some(result.map_or((hi, lo), |(l, h): Span| (l.min(hi), h.max(lo))));
    }
    result.ok_or(Stop::Unknown)
}

/// `interval::periodic`: the ends and every extremum (sin, cos) or pole (tan) that may lie
/// inside, found with a slack (2^-30 and 2^-45 relative) that holds every one MPFR's 2^-40
/// finds. Beyond 2^20 in magnitude, or across more than a few extrema, sin and cos take
/// [`UNIT`] and tan gives up.
pub(super) fn periodic(instruction: &str, (lo, hi): Span) -> Result<Span, Stop> {
    let tan = instruction == "tan";
    if !lo.is_finite() || !hi.is_finite() {
        return Err(Stop::Unknown);
    }
    if lo == hi {
        return at(instruction, &[lo]);
    }
    let magnitude = lo.abs().max(hi.abs());
    let offset = if instruction == "cos" {
        0.0
    } else {
        std::f64::consts::FRAC_PI_2
    };
    let slack = crate::num::fp::pow2(-30) + magnitude * crate::num::fp::pow2(-45);
    let first = ((lo - offset) / std::f64::consts::PI - slack).ceil();
    let last = ((hi - offset) / std::f64::consts::PI + slack).floor();
    if tan {
        return if magnitude <= 1048576.0 && first > last {
            Ok((at(instruction, &[lo])?.0, at(instruction, &[hi])?.1))
        } else {
            Err(Stop::Unknown)
        };
    }
    if magnitude > 1048576.0 || last - first > 4.0 {
        return Ok(UNIT);
    }
    let mut span = hull(at(instruction, &[lo])?, at(instruction, &[hi])?);
    let mut k = first;
    while k <= last {
        // sin at π/2 + kπ and cos at kπ: 1 for even k.
        let extremum = if k.rem_euclid(2.0) == 0.0 {
            UNIT.1
        } else {
            UNIT.0
        };
        span = hull(span, (extremum, extremum));
        k += 1.0;
    }
    Ok(span)
}
