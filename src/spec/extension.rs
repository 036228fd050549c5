//! The SPIR-V floating-point extension checks, as data: which extension, which conversion or
//! flags, what each unit is called. Their modules are built in [`crate::kernel::spirv_opencl::extension`],
//! their inputs planned in [`crate::sweep::extension`], their results judged in
//! [`crate::judge::extension`]; the units and how they run are [`crate::run::extension`]'s.

use rspirv::spirv::FPFastMathMode;

use crate::num::convert::IntType;
use crate::num::float8::Float8Format;
use crate::num::fp::FloatType;
use crate::spec::conversion::Scalar;

pub const FLOAT8: &str = "SPV_EXT_float8";
pub const FLOAT_CONTROLS2: &str = "SPV_KHR_float_controls2";
pub const ARITHMETIC_FENCE: &str = "SPV_EXT_arithmetic_fence";

/// The extensions clacc checks, in report order.
pub const EXTENSIONS: [&str; 3] = [FLOAT8, FLOAT_CONTROLS2, ARITHMETIC_FENCE];

/// One extension check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExtensionCheck {
    Float8(Float8Check),
    FloatControls2(Fc2Check),
    ArithmeticFence,
}

impl ExtensionCheck {
    /// Every check, in report order.
    pub fn all() -> Vec<ExtensionCheck> {
        let mut all: Vec<ExtensionCheck> = Float8Check::all()
            .into_iter()
            .map(ExtensionCheck::Float8)
            .collect();
        all.extend(
            Fc2Check::all()
                .into_iter()
                .map(ExtensionCheck::FloatControls2),
        );
        all.push(ExtensionCheck::ArithmeticFence);
        all
    }

    /// The unit's name (see the module doc).
    pub fn name(&self) -> String {
        match self {
            ExtensionCheck::Float8(check) => check.name(),
            ExtensionCheck::FloatControls2(check) => check.name(),
            ExtensionCheck::ArithmeticFence => "arithmetic_fence".to_string(),
        }
    }

    /// The SPIR-V extension the check's module declares.
    pub fn extension(&self) -> &'static str {
        match self {
            ExtensionCheck::Float8(_) => FLOAT8,
            ExtensionCheck::FloatControls2(_) => FLOAT_CONTROLS2,
            ExtensionCheck::ArithmeticFence => ARITHMETIC_FENCE,
        }
    }

    /// The CSV's `type`.
    pub fn element(&self) -> FloatType {
        match self {
            ExtensionCheck::Float8(check) => check.element(),
            ExtensionCheck::FloatControls2(check) => check.element,
            ExtensionCheck::ArithmeticFence => FloatType::Float,
        }
    }

    pub(crate) fn float_types(&self) -> Vec<FloatType> {
        match self {
            ExtensionCheck::Float8(check) => check.float_types(),
            ExtensionCheck::FloatControls2(check) => vec![check.element],
            ExtensionCheck::ArithmeticFence => vec![FloatType::Float],
        }
    }

    /// `<name>_a<address bits>`.
    pub fn file_stem(&self, address_bits: u32) -> String {
        format!("{}_a{address_bits}", self.name())
    }
}

// ---------------------------------------------------------------------------------------------
// SPV_EXT_float8

/// The non-float8 side of a float8 conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Other {
    Float(FloatType),
    Int(IntType),
}

impl Other {
    pub fn name(self) -> &'static str {
        match self {
            Other::Float(element) => element.name(),
            Other::Int(int) => int.name(),
        }
    }

    pub(crate) fn scalar(self) -> Scalar {
        match self {
            Other::Float(element) => Scalar::Float(element.bits()),
            Other::Int(int) => Scalar::Int(int.bits()),
        }
    }
}

/// One float8 conversion: to a float8 encoding (`OpFConvert`, `OpConvertSToF`,
/// `OpConvertUToF`, optionally `SaturatedToLargestFloat8NormalConversionEXT`) or from one
/// (`OpFConvert`, `OpConvertFToS`, `OpConvertFToU`, optionally `SaturatedConversion`), in the
/// default rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Float8Check {
    To {
        from: Other,
        to: Float8Format,
        saturate: bool,
    },
    From {
        from: Float8Format,
        to: Other,
        saturate: bool,
    },
}

impl Float8Check {
    /// Every float8 check: from half, float and the integers `char`, `uchar`, `short`, `int`
    /// to each encoding, with and without saturation; from each encoding to half, float,
    /// double, and to `char` and `int` with and without `SaturatedConversion`.
    pub fn all() -> Vec<Float8Check> {
        let sources = [
            Other::Float(FloatType::Half),
            Other::Float(FloatType::Float),
            Other::Int(IntType::I8),
            Other::Int(IntType::U8),
            Other::Int(IntType::I16),
            Other::Int(IntType::I32),
        ];
        let destinations = [
            (Other::Float(FloatType::Half), false),
            (Other::Float(FloatType::Float), false),
            (Other::Float(FloatType::Double), false),
            (Other::Int(IntType::I8), false),
            (Other::Int(IntType::I8), true),
            (Other::Int(IntType::I32), false),
            (Other::Int(IntType::I32), true),
        ];
        let mut all = Vec::new();
        for format in Float8Format::ALL {
            for from in sources {
                for saturate in [false, true] {
                    all.push(Float8Check::To {
                        from,
                        to: format,
                        saturate,
                    });
                }
            }
            for (to, saturate) in destinations {
                all.push(Float8Check::From {
                    from: format,
                    to,
                    saturate,
                });
            }
        }
        all
    }

    /// `float8_half_to_e4m3`, `float8_int_to_e5m2_sat`, `float8_e4m3_to_float`,
    /// `float8_e5m2_to_char_sat`.
    pub fn name(&self) -> String {
        let format = |f: Float8Format| f.name().to_lowercase();
        let sat = |s: bool| if s { "_sat" } else { "" };
        match self {
            Float8Check::To { from, to, saturate } => {
                format!(
                    "float8_{}_to_{}{}",
                    from.name(),
                    format(*to),
                    sat(*saturate)
                )
            }
            Float8Check::From { from, to, saturate } => {
                format!(
                    "float8_{}_to_{}{}",
                    format(*from),
                    to.name(),
                    sat(*saturate)
                )
            }
        }
    }

    /// The CSV's `type`: the float type on the other side, `float` where that is an integer
    /// (float8 is no [`FloatType`]; see the module doc of `extension`).
    pub fn element(&self) -> FloatType {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            }
            | Float8Check::From {
                to: Other::Float(element),
                ..
            } => *element,
            _ => FloatType::Float,
        }
    }

    pub fn float_types(&self) -> Vec<FloatType> {
        match self {
            Float8Check::To {
                from: Other::Float(element),
                ..
            }
            | Float8Check::From {
                to: Other::Float(element),
                ..
            } => vec![*element],
            _ => Vec::new(),
        }
    }

    pub(crate) fn format(&self) -> Float8Format {
        match self {
            Float8Check::To { to, .. } => *to,
            Float8Check::From { from, .. } => *from,
        }
    }

    pub(crate) fn source(&self) -> Scalar {
        match self {
            Float8Check::To { from, .. } => from.scalar(),
            Float8Check::From { from, .. } => Scalar::Float8(*from),
        }
    }

    pub(crate) fn destination(&self) -> Scalar {
        match self {
            Float8Check::To { to, .. } => Scalar::Float8(*to),
            Float8Check::From { to, .. } => to.scalar(),
        }
    }

    /// Every input where it fits: the 256 codes, every half, every 8- and 16-bit integer.
    pub(crate) fn exhaustive_count(&self) -> Option<u64> {
        match self.source() {
            Scalar::Float8(_) => Some(256),
            Scalar::Int(8) => Some(1 << 8),
            Scalar::Float(16) | Scalar::Int(16) => Some(1 << 16),
            _ => None,
        }
    }

    pub fn is_exhaustive(&self) -> bool {
        self.exhaustive_count().is_some()
    }

    pub fn integer_output(&self) -> bool {
        matches!(
            self,
            Float8Check::From {
                to: Other::Int(_),
                ..
            }
        )
    }

    pub(crate) fn source_scalar(&self) -> Scalar {
        self.source()
    }

    pub(crate) fn destination_scalar(&self) -> Scalar {
        self.destination()
    }
}

// ---------------------------------------------------------------------------------------------
// SPV_KHR_float_controls2

/// The fast-math flags a float_controls2 check sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flags {
    /// No flag: IEEE semantics for signed zeros, infinities and NaNs.
    None,
    /// `NSZ`: the sign of a zero argument or result is not significant.
    Nsz,
    /// `NotInf`: arguments and result are assumed not to be ±inf.
    NotInf,
    /// `NotNaN`: arguments and result are assumed not to be NaN.
    NotNan,
}

impl Flags {
    pub const ALL: [Flags; 4] = [Flags::None, Flags::Nsz, Flags::NotInf, Flags::NotNan];

    pub fn name(self) -> &'static str {
        match self {
            Flags::None => "none",
            Flags::Nsz => "nsz",
            Flags::NotInf => "notinf",
            Flags::NotNan => "notnan",
        }
    }

    pub fn mode(self) -> FPFastMathMode {
        match self {
            Flags::None => FPFastMathMode::NONE,
            Flags::Nsz => FPFastMathMode::NSZ,
            Flags::NotInf => FPFastMathMode::NOT_INF,
            Flags::NotNan => FPFastMathMode::NOT_NAN,
        }
    }
}

/// How the flags reach the instructions (`%type`: the check's float type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Via {
    /// `OpExecutionModeId %entry FPFastMathDefault %type %flags`.
    Default,
    /// `FPFastMathMode` decorations on each instruction, under `FPFastMathDefault %type 0`.
    Decoration,
}

/// The instructions a float_controls2 kernel applies, each to its own output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Arithmetic {
    FAdd,
    FSub,
    FMul,
    FDiv,
    FNegate,
}

impl Arithmetic {
    pub const ALL: [Arithmetic; 5] = [
        Arithmetic::FAdd,
        Arithmetic::FSub,
        Arithmetic::FMul,
        Arithmetic::FDiv,
        Arithmetic::FNegate,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Arithmetic::FAdd => "OpFAdd",
            Arithmetic::FSub => "OpFSub",
            Arithmetic::FMul => "OpFMul",
            Arithmetic::FDiv => "OpFDiv",
            Arithmetic::FNegate => "OpFNegate",
        }
    }

    /// The IEEE result in `element`, round to nearest even, of operands `x`, `y` of that type
    /// (widened to `f64`), widened to `f64`. The host's double operation rounds once to 53
    /// bits and [`FloatType::round`] once more to the type's precision p; for +, −, ·, / that
    /// second rounding gives the once-rounded result whenever 53 ≥ 2p + 2 (Figueroa, "When is
    /// double rounding innocuous?", 1995), which holds for float (p = 24) and half (p = 11);
    /// for double there is no second rounding.
    pub fn apply(self, element: FloatType, x: f64, y: f64) -> f64 {
        let double = match self {
            Arithmetic::FAdd => x + y,
            Arithmetic::FSub => x - y,
            Arithmetic::FMul => x * y,
            Arithmetic::FDiv => x / y,
            Arithmetic::FNegate => -x,
        };
        element.round(double)
    }

    /// The operands the instruction reads.
    pub(crate) fn operands(self, x: f64, y: f64) -> Vec<f64> {
        match self {
            Arithmetic::FNegate => vec![x],
            _ => vec![x, y],
        }
    }
}

/// One float_controls2 check: the flags, how they are set, and the float type they are set
/// for, which is the type of the operands and results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fc2Check {
    pub flags: Flags,
    pub via: Via,
    pub element: FloatType,
}

impl Fc2Check {
    /// For float, then half, then double: `None` by execution mode, and each of NSZ, NotInf,
    /// NotNaN both ways (float first, so its rows keep their order).
    pub fn all() -> Vec<Fc2Check> {
        let mut all = Vec::new();
        for element in [FloatType::Float, FloatType::Half, FloatType::Double] {
            all.push(Fc2Check {
                flags: Flags::None,
                via: Via::Default,
                element,
            });
            for flags in [Flags::Nsz, Flags::NotInf, Flags::NotNan] {
                for via in [Via::Default, Via::Decoration] {
                    all.push(Fc2Check {
                        flags,
                        via,
                        element,
                    });
                }
            }
        }
        all
    }

    /// `float_controls2_ieee`, `float_controls2_nsz_default`, `float_controls2_notinf_decoration`
    /// for float; `float_controls2_half_ieee`, `float_controls2_double_notnan_default` for the
    /// others. Units are found by name alone, so the type is in it; float's names are those
    /// its rows and reproduce lines had before half and double were checked.
    pub fn name(&self) -> String {
        let prefix = match self.element {
            FloatType::Float => "float_controls2".to_string(),
            other => format!("float_controls2_{}", other.name()),
        };
        match (self.flags, self.via) {
            (Flags::None, _) => format!("{prefix}_ieee"),
            (flags, Via::Default) => format!("{prefix}_{}_default", flags.name()),
            (flags, Via::Decoration) => format!("{prefix}_{}_decoration", flags.name()),
        }
    }
}
