//! The conversions clacc checks, as data: which instruction, which types, which decoration,
//! what the unit is called and what its buffers hold. The module is built in
//! [`crate::kernel::spirv_opencl::conversion`], its inputs planned in [`crate::sweep::conversion`], its
//! results judged in [`crate::judge::conversion`]; the units themselves are
//! [`crate::run::conversion`]'s.

use std::fmt;

use crate::num::convert::{IntType, Rounding};
use crate::num::float8::Float8Format;
use crate::num::fp::FloatType;

/// One conversion instruction with its source and destination types and its decoration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Conversion {
    /// `OpFConvert`; `rounding` is the `FPRoundingMode` decoration, `None` for none.
    FloatToFloat {
        from: FloatType,
        to: FloatType,
        rounding: Option<Rounding>,
    },
    /// `OpConvertSToF` (signed `from`) or `OpConvertUToF` (unsigned `from`).
    IntToFloat {
        from: IntType,
        to: FloatType,
        rounding: Option<Rounding>,
    },
    /// `OpConvertFToS` (signed `to`) or `OpConvertFToU` (unsigned `to`), round toward zero;
    /// `saturated` is the `SaturatedConversion` decoration.
    FloatToInt {
        from: FloatType,
        to: IntType,
        saturated: bool,
    },
}

impl Conversion {
    /// Every conversion clacc checks, in report order: float to float, integer to float, float
    /// to integer.
    pub fn all() -> Vec<Conversion> {
        let modes: Vec<Option<Rounding>> = std::iter::once(None)
            .chain(Rounding::ALL.into_iter().map(Some))
            .collect();
        let mut all = Vec::new();
        for from in FloatType::ALL {
            for to in FloatType::ALL {
                if from != to {
                    for rounding in &modes {
                        all.push(Conversion::FloatToFloat {
                            from,
                            to,
                            rounding: *rounding,
                        });
                    }
                }
            }
        }
        for from in IntType::ALL {
            for to in FloatType::ALL {
                for rounding in &modes {
                    all.push(Conversion::IntToFloat {
                        from,
                        to,
                        rounding: *rounding,
                    });
                }
            }
        }
        for from in FloatType::ALL {
            for to in IntType::ALL {
                for saturated in [false, true] {
                    all.push(Conversion::FloatToInt {
                        from,
                        to,
                        saturated,
                    });
                }
            }
        }
        all
    }

    /// The unit's name (see the module doc): `convert_float_to_half_rtz`,
    /// `convert_int_to_float`, `convert_double_to_uchar_sat`.
    pub fn name(&self) -> String {
        let mode = |rounding: &Option<Rounding>| match rounding {
            Some(rounding) => format!("_{}", rounding.name()),
            None => String::new(),
        };
        match self {
            Conversion::FloatToFloat { from, to, rounding } => {
                format!("convert_{from}_to_{to}{}", mode(rounding))
            }
            Conversion::IntToFloat { from, to, rounding } => {
                format!("convert_{from}_to_{to}{}", mode(rounding))
            }
            Conversion::FloatToInt {
                from,
                to,
                saturated,
            } => format!(
                "convert_{from}_to_{to}{}",
                if *saturated { "_sat" } else { "" }
            ),
        }
    }

    /// The CSV's `type`: the destination float type, or the source one for float to integer.
    pub fn element(&self) -> FloatType {
        match self {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => *to,
            Conversion::FloatToInt { from, .. } => *from,
        }
    }

    /// The float types the conversion touches, each of which the device must support.
    pub fn float_types(&self) -> Vec<FloatType> {
        match self {
            Conversion::FloatToFloat { from, to, .. } => vec![*from, *to],
            Conversion::IntToFloat { to, .. } => vec![*to],
            Conversion::FloatToInt { from, .. } => vec![*from],
        }
    }

    /// The integer type the conversion touches, if any.
    pub fn int_type(&self) -> Option<IntType> {
        match self {
            Conversion::FloatToFloat { .. } => None,
            Conversion::IntToFloat { from, .. } => Some(*from),
            Conversion::FloatToInt { to, .. } => Some(*to),
        }
    }

    /// The rounding mode the result must be rounded in: the decoration's, else the default
    /// ("Rounding Modes for Conversions").
    pub fn rounding(&self) -> Rounding {
        match self {
            Conversion::FloatToFloat { rounding, .. } | Conversion::IntToFloat { rounding, .. } => {
                rounding.unwrap_or(Rounding::TO_FLOAT_DEFAULT)
            }
            Conversion::FloatToInt { .. } => Rounding::TO_INT_DEFAULT,
        }
    }

    /// The source buffer's element type.
    pub(crate) fn source(&self) -> Scalar {
        match self {
            Conversion::FloatToFloat { from, .. } | Conversion::FloatToInt { from, .. } => {
                Scalar::Float(from.bits())
            }
            Conversion::IntToFloat { from, .. } => Scalar::Int(from.bits()),
        }
    }

    /// The destination buffer's element type.
    pub(crate) fn destination(&self) -> Scalar {
        match self {
            Conversion::FloatToFloat { to, .. } | Conversion::IntToFloat { to, .. } => {
                Scalar::Float(to.bits())
            }
            Conversion::FloatToInt { to, .. } => Scalar::Int(to.bits()),
        }
    }

    /// The SPIR-V instruction's name, for notes: `OpFConvert`, `OpConvertUToF`, ...
    pub fn instruction(&self) -> &'static str {
        match self {
            Conversion::FloatToFloat { .. } => "OpFConvert",
            Conversion::IntToFloat { from, .. } if from.is_signed() => "OpConvertSToF",
            Conversion::IntToFloat { .. } => "OpConvertUToF",
            Conversion::FloatToInt { to, .. } if to.is_signed() => "OpConvertFToS",
            Conversion::FloatToInt { .. } => "OpConvertFToU",
        }
    }

    /// The decoration the instruction carries, for notes: `FPRoundingMode RTZ`,
    /// `SaturatedConversion`, or `no decoration`.
    pub fn decoration(&self) -> String {
        match self {
            Conversion::FloatToFloat {
                rounding: Some(rounding),
                ..
            }
            | Conversion::IntToFloat {
                rounding: Some(rounding),
                ..
            } => format!("FPRoundingMode {}", rounding.name().to_uppercase()),
            Conversion::FloatToInt {
                saturated: true, ..
            } => "SaturatedConversion".to_string(),
            _ => "no decoration".to_string(),
        }
    }

    /// Every input when the source is small enough to enumerate: every half, every 8- and
    /// 16-bit integer; with `exhaustive`, also every float for float to half (2^32 inputs,
    /// about 3.5 minutes on two cores). `None` means sampled.
    pub fn exhaustive_count(&self, exhaustive: bool) -> Option<u64> {
        let bits = match self.source() {
            Scalar::Float(bits) | Scalar::Int(bits) => bits,
            Scalar::Float8(_) => 8,
        };
        let float_to_half = matches!(
            self,
            Conversion::FloatToFloat {
                from: FloatType::Float,
                to: FloatType::Half,
                ..
            }
        );
        match bits {
            0..=16 => Some(1 << bits),
            32 if exhaustive && float_to_half => Some(1 << 32),
            _ => None,
        }
    }
}

impl fmt::Display for Conversion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The type of one buffer element and of the value the kernel loads from it or stores to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Scalar {
    /// An IEEE binary float of 16, 32 or 64 bits.
    Float(u32),
    /// An integer of 8, 16, 32 or 64 bits (SPIR-V integer types of a `Kernel` module have
    /// signedness 0; signedness lives in the instructions).
    Int(u32),
    /// A float8 value held in a `uchar` buffer.
    Float8(Float8Format),
}

impl Scalar {
    /// Bytes per buffer element.
    pub(crate) fn bytes(self) -> usize {
        match self {
            Scalar::Float(bits) | Scalar::Int(bits) => bits as usize / 8,
            Scalar::Float8(_) => 1,
        }
    }
}

/// The value of an integer element's bits (two's complement for signed types).
pub(crate) fn int_value(bits: u64, int: IntType) -> i128 {
    let width = int.bits();
    let masked = if width == 64 {
        bits
    } else {
        bits & ((1u64 << width) - 1)
    };
    if int.is_signed() && masked >> (width - 1) & 1 == 1 {
        i128::from(masked) - (1i128 << width)
    } else {
        i128::from(masked)
    }
}

/// The bits of an integer value in its type (two's complement for negative values).
pub(crate) fn int_bits(value: i128, int: IntType) -> u64 {
    let width = int.bits();
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    (value as u64) & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_documented_scheme() {
        let names: Vec<String> = Conversion::all().iter().map(Conversion::name).collect();
        for expected in [
            "convert_float_to_half_rtz",
            "convert_float_to_half",
            "convert_int_to_float_rte",
            "convert_float_to_uchar_sat",
            "convert_double_to_ulong",
            "convert_ulong_to_half_rtn",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected} missing");
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "names are unique");
        let to_int = Conversion::FloatToInt {
            from: FloatType::Double,
            to: IntType::U8,
            saturated: true,
        };
        assert_eq!(to_int.element(), FloatType::Double);
        let to_half = Conversion::IntToFloat {
            from: IntType::I32,
            to: FloatType::Half,
            rounding: None,
        };
        assert_eq!(to_half.element(), FloatType::Half);
        assert_eq!(to_half.rounding(), Rounding::Rte);
    }

    #[test]
    fn integer_bits_round_trip() {
        for int in IntType::ALL {
            for value in [int.min(), int.max(), 0, 1, int.min() + 1] {
                assert_eq!(int_value(int_bits(value, int), int), value, "{int} {value}");
            }
        }
        assert_eq!(int_value(0xff, IntType::I8), -1);
        assert_eq!(int_value(0xff, IntType::U8), 255);
        assert_eq!(int_bits(-1, IntType::I64), u64::MAX);
    }

    #[test]
    fn coverage_is_exhaustive_where_it_fits() {
        let half = Conversion::FloatToInt {
            from: FloatType::Half,
            to: IntType::I32,
            saturated: false,
        };
        assert_eq!(half.exhaustive_count(false), Some(1 << 16));
        let short = Conversion::IntToFloat {
            from: IntType::U16,
            to: FloatType::Double,
            rounding: None,
        };
        assert_eq!(short.exhaustive_count(false), Some(1 << 16));
        let float = Conversion::FloatToFloat {
            from: FloatType::Float,
            to: FloatType::Half,
            rounding: None,
        };
        assert_eq!(float.exhaustive_count(false), None);
        assert_eq!(float.exhaustive_count(true), Some(1 << 32));
        let double = Conversion::FloatToFloat {
            from: FloatType::Double,
            to: FloatType::Half,
            rounding: None,
        };
        assert_eq!(double.exhaustive_count(true), None);
        let to_int = Conversion::FloatToInt {
            from: FloatType::Float,
            to: IntType::I32,
            saturated: true,
        };
        assert_eq!(to_int.exhaustive_count(true), None);
    }
}
