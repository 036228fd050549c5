//! The signature of a function as the spec describes it: which SPIR-V instruction it is, its
//! signature class ([`Shape`]) and the kinds of value that flow in and out ([`ValueKind`]).
//! Data only: the kernel builder (`crate::kernel`) builds modules from it, the sweep draws
//! inputs for it, the registry names it per function.

use rspirv::grammar;

use crate::num::fp::FloatType;

/// Re-exported so callers name OpenCL.std instructions as enum values, never as bare numbers.
pub use rspirv::spirv::OpenclStd100Op;

/// Vector widths OpenCL defines for gentype built-ins.
pub const WIDTHS: [u32; 6] = [1, 2, 3, 4, 8, 16];

/// Vector widths OpenCL defines for the geometric built-ins (`length`, `distance`,
/// `normalize`, ...): scalars and 2-, 3- and 4-component vectors. See [`Shape::widths`].
pub const GEOMETRIC_WIDTHS: [u32; 4] = [1, 2, 3, 4];

/// Vector widths of `OpDot`: "Vector 1 and Vector 2 must be vectors", so no scalar.
pub const DOT_WIDTHS: [u32; 3] = [2, 3, 4];

/// Vector widths of `cross`: OpenCL defines it for 3- and 4-component vectors only.
pub const CROSS_WIDTHS: [u32; 2] = [3, 4];

/// The name SPIR-V gives the OpenCL extended instruction set.
pub const OPENCL_STD: &str = "OpenCL.std";

/// Which SPIR-V instruction the kernel applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Instruction {
    FAdd,
    FSub,
    FMul,
    FDiv,
    /// `OpDot`: the dot product of two float vectors (2 to 4 components), a scalar.
    Dot,
    /// `x * y + z` as an `OpFMul` whose product an `OpFAdd` then adds to `z`: the body Table 5's
    /// "OpFMul and OpFAdd for x * y + z" row bounds (a relaxed build may contract it to an fma).
    FMulFAdd,
    /// An instruction of the OpenCL.std extended instruction set (`OpExtInst`).
    Ext(OpenclStd100Op),
}

impl Instruction {
    /// The lower-case name used in file names and reports: `fadd`, or the OpenCL.std
    /// instruction's name from the SPIR-V grammar (`sin`, `fmax_common`, `half_exp`).
    pub fn name(&self) -> &'static str {
        match self {
            Instruction::FAdd => "fadd",
            Instruction::FSub => "fsub",
            Instruction::FMul => "fmul",
            Instruction::FDiv => "fdiv",
            Instruction::Dot => "dot",
            Instruction::FMulFAdd => "fmul_fadd",
            Instruction::Ext(op) => opencl_std_grammar(*op).map_or("unknown", |g| g.opname),
        }
    }

    /// The OpenCL.std instruction called `name` in the SPIR-V grammar (`length`, `sin`).
    pub fn extended(name: &str) -> Option<Instruction> {
        (0..=OpenclStd100Op::fast_normalize as u32)
            .filter_map(OpenclStd100Op::from_u32)
            .map(Instruction::Ext)
            .find(|instruction| instruction.name() == name)
    }

    /// Whether OpenCL defines the instruction for `float` only: the `fast_` geometric functions
    /// (OpenCL C declares `fast_length`, `fast_distance` and `fast_normalize` for `floatn` and
    /// nothing else, and the spec gives their accuracy for `float` only).
    pub fn float_only(&self) -> bool {
        use OpenclStd100Op as Op;
        matches!(
            self,
            Instruction::Ext(Op::fast_length | Op::fast_distance | Op::fast_normalize)
        )
    }
}

/// The grammar entry (name, operand list) of an OpenCL.std instruction.
pub fn opencl_std_grammar(
    op: OpenclStd100Op,
) -> Option<&'static grammar::ExtendedInstruction<'static>> {
    grammar::ext_inst_table(OPENCL_STD)?.lookup_opcode(op as u32)
}

/// The signature class: which values an instruction reads and how its results come back.
///
/// `gentype` is the spec's element type (`half`, `float`, `double`) with the spec's width, `intn`
/// a 32-bit `int` with as many components, `ugentype` an unsigned integer as wide as the element
/// with as many components, `scalar` one value of the element type whatever the width.
///
/// The geometric shapes (`Length`, `Distance`, `Normalize`) take widths 1, 2, 3 and 4 only
/// ([`Shape::widths`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// `gentype f(gentype x)`
    Unary,
    /// `gentype f(gentype x, gentype y)`
    Binary,
    /// `gentype f(gentype x, gentype y, gentype z)`
    Ternary,
    /// `gentype f(gentype x, intn k)`: `ldexp`, `pown`, `rootn`.
    FloatInt,
    /// `intn f(gentype x)`: `ilogb`.
    IntResult,
    /// `gentype f(gentype x, gentype *out)`: `fract`, `modf`, `sincos`.
    WithFloatOut,
    /// `gentype f(gentype x, intn *out)`: `frexp`, `lgamma_r`.
    WithIntOut,
    /// `gentype f(gentype x, gentype y, intn *quo)`: `remquo`.
    BinaryWithIntOut,
    /// `gentype f(ugentype nancode)`: `nan`.
    Nan,
    /// `scalar f(gentype p)`: `length`, `fast_length`.
    Length,
    /// `scalar f(gentype p0, gentype p1)`: `distance`, `fast_distance`.
    Distance,
    /// `gentype f(gentype p)`: `normalize`, `fast_normalize`.
    Normalize,
    /// `scalar f(gentype x, gentype y)` at widths 2 to 4: `OpDot`.
    Dot,
    /// `gentype f(gentype x, gentype y)` at widths 3 and 4: `cross`.
    Cross,
}

impl Shape {
    pub const ALL: [Shape; 14] = [
        Shape::Unary,
        Shape::Binary,
        Shape::Ternary,
        Shape::FloatInt,
        Shape::IntResult,
        Shape::WithFloatOut,
        Shape::WithIntOut,
        Shape::BinaryWithIntOut,
        Shape::Nan,
        Shape::Length,
        Shape::Distance,
        Shape::Normalize,
        Shape::Dot,
        Shape::Cross,
    ];

    /// The vector widths a module of this shape can be built for: [`GEOMETRIC_WIDTHS`] for the
    /// geometric shapes, [`WIDTHS`] for the others.
    pub fn widths(self) -> &'static [u32] {
        match self {
            Shape::Dot => &DOT_WIDTHS,
            Shape::Cross => &CROSS_WIDTHS,
            _ if self.is_geometric() => &GEOMETRIC_WIDTHS,
            _ => &WIDTHS,
        }
    }

    /// Whether the shape is a geometric function's (`Length`, `Distance`, `Normalize`, `Dot`,
    /// `Cross`): its widths are few, and its results depend on every component.
    pub fn is_geometric(self) -> bool {
        matches!(
            self,
            Shape::Length | Shape::Distance | Shape::Normalize | Shape::Dot | Shape::Cross
        )
    }

    /// What flows in and out, so the emitter and the buffer counts follow from one table.
    pub fn signature(self) -> Signature {
        use ValueKind::{FloatGentype as F, FloatScalar as S, IntGentype as I, UintGentype as U};
        let (arguments, returned, pointer_out): (&'static [ValueKind], _, _) = match self {
            Shape::Unary => (&[F], F, None),
            Shape::Binary => (&[F, F], F, None),
            Shape::Ternary => (&[F, F, F], F, None),
            Shape::FloatInt => (&[F, I], F, None),
            Shape::IntResult => (&[F], I, None),
            Shape::WithFloatOut => (&[F], F, Some(F)),
            Shape::WithIntOut => (&[F], F, Some(I)),
            Shape::BinaryWithIntOut => (&[F, F], F, Some(I)),
            Shape::Nan => (&[U], F, None),
            Shape::Length => (&[F], S, None),
            Shape::Distance => (&[F, F], S, None),
            Shape::Normalize => (&[F], F, None),
            Shape::Dot => (&[F, F], S, None),
            Shape::Cross => (&[F, F], F, None),
        };
        Signature {
            arguments,
            returned,
            pointer_out,
        }
    }
}

/// The type of one value flowing through a kernel parameter, relative to the spec's element
/// type. Every kind but [`ValueKind::FloatScalar`] has the spec's width: a scalar at width 1, an
/// `n`-component vector otherwise, stored packed (see `crate::kernel`'s module doc). A
/// `FloatScalar` is one element per work-item at every width ([`ValueKind::components`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// The element type itself: `half`, `float` or `double` components.
    FloatGentype,
    /// 32-bit signed integer (`int`) components, whatever the element type.
    IntGentype,
    /// Unsigned integer components as wide as the element: `ushort` for `half`, `uint` for
    /// `float`, `ulong` for `double`.
    UintGentype,
    /// One scalar of the element type per work-item, whatever the spec's width: the result of
    /// `length` and `distance`. Its buffer holds one element per work-item, element `g` being
    /// work-item `g`'s.
    FloatScalar,
}

impl ValueKind {
    /// Bytes of one component in a buffer, for the spec's element type.
    pub fn component_bytes(self, element: FloatType) -> usize {
        match self {
            ValueKind::FloatGentype | ValueKind::UintGentype | ValueKind::FloatScalar => {
                element.bytes()
            }
            ValueKind::IntGentype => 4,
        }
    }

    /// Components per work-item in a buffer of this kind for a spec of `width`: `width`, or 1
    /// for [`ValueKind::FloatScalar`]. A buffer for `n` work-items holds `n` times as many
    /// components of [`ValueKind::component_bytes`] each.
    pub fn components(self, width: u32) -> u32 {
        match self {
            ValueKind::FloatScalar => 1,
            ValueKind::FloatGentype | ValueKind::IntGentype | ValueKind::UintGentype => width,
        }
    }

    /// Whether the components are integers (`OpTypeInt`) rather than the element type.
    pub fn is_integer(self) -> bool {
        match self {
            ValueKind::IntGentype | ValueKind::UintGentype => true,
            ValueKind::FloatGentype | ValueKind::FloatScalar => false,
        }
    }

    /// Bits of one component; for the integer kinds, the SPIR-V `OpTypeInt` width.
    pub fn component_bits(self, element: FloatType) -> u32 {
        self.component_bytes(element) as u32 * 8
    }
}

/// How values travel between the buffers and one instruction.
///
/// Each argument is an operand loaded from its own input buffer. The instruction's returned
/// value goes to the first output buffer; a pointer out-argument, when there is one, is the
/// instruction's last operand and what it writes goes to the second output buffer.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    pub arguments: &'static [ValueKind],
    pub returned: ValueKind,
    pub pointer_out: Option<ValueKind>,
}

impl Signature {
    /// The instruction's operand count: the loaded arguments and the out pointer.
    pub fn operand_count(&self) -> usize {
        self.arguments.len() + usize::from(self.pointer_out.is_some())
    }

    /// The output buffers' kinds: the returned value, then the pointer out-argument.
    pub fn results(&self) -> impl Iterator<Item = ValueKind> {
        std::iter::once(self.returned).chain(self.pointer_out)
    }

    /// Whether every operand and the result is the float gentype, so arity alone tells the
    /// shape (`Unary`, `Binary`, `Ternary`).
    pub fn is_all_float(&self) -> bool {
        self.pointer_out.is_none()
            && self.returned == ValueKind::FloatGentype
            && self
                .arguments
                .iter()
                .all(|kind| *kind == ValueKind::FloatGentype)
    }
}
