//! The floating-point formats clacc checks, and the facts about each one that
//! every other module needs (bit width, precision, exponent range, names).

use std::fmt;

/// One of the three OpenCL floating-point element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatType {
    /// `half`, SPIR-V `OpTypeFloat 16`, capability Float16.
    Half,
    /// `float`, SPIR-V `OpTypeFloat 32`.
    Float,
    /// `double`, SPIR-V `OpTypeFloat 64`, capability Float64.
    Double,
}

impl FloatType {
    pub const ALL: [FloatType; 3] = [FloatType::Half, FloatType::Float, FloatType::Double];

    /// Storage width in bits.
    pub fn bits(self) -> u32 {
        match self {
            FloatType::Half => 16,
            FloatType::Float => 32,
            FloatType::Double => 64,
        }
    }

    /// Bytes per element in a buffer.
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }

    /// Significand precision p in bits, hidden bit included (IEEE 754 binary16/32/64).
    pub fn precision(self) -> u32 {
        match self {
            FloatType::Half => 11,
            FloatType::Float => 24,
            FloatType::Double => 53,
        }
    }

    /// Exponent of the smallest normal number: 2^emin.
    pub fn emin(self) -> i32 {
        match self {
            FloatType::Half => -14,
            FloatType::Float => -126,
            FloatType::Double => -1022,
        }
    }

    /// Exponent of the largest finite number's leading bit: max = (2 - 2^(1-p)) * 2^emax.
    pub fn emax(self) -> i32 {
        match self {
            FloatType::Half => 15,
            FloatType::Float => 127,
            FloatType::Double => 1023,
        }
    }

    /// Number of explicit fraction bits (p - 1).
    pub fn fraction_bits(self) -> u32 {
        self.precision() - 1
    }

    /// The OpenCL C name, as used on the command line and in the CSV.
    pub fn name(self) -> &'static str {
        match self {
            FloatType::Half => "half",
            FloatType::Float => "float",
            FloatType::Double => "double",
        }
    }

    /// The column name the spec's tables use ("Minimum Accuracy - Float32").
    pub fn spirv_name(self) -> &'static str {
        match self {
            FloatType::Half => "Float16",
            FloatType::Float => "Float32",
            FloatType::Double => "Float64",
        }
    }

    /// Parses a command-line type name (`half`, `float`, `double`, or the SPIR-V names).
    pub fn parse(text: &str) -> Option<FloatType> {
        FloatType::ALL
            .into_iter()
            .find(|t| text.eq_ignore_ascii_case(t.name()) || text.eq_ignore_ascii_case(t.spirv_name()))
    }
}

impl fmt::Display for FloatType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
