//! clacc's own validation of the modules that use SPIR-V floating-point extensions, run on
//! every such module before any driver sees it ([`guard`]).
//!
//! Drivers do not validate modules (a bad one may crash the process), and the `spirv-val`
//! that Debian bookworm ships (SPIRV-Tools v2023.1) knows none of SPV_KHR_float_controls2,
//! SPV_EXT_arithmetic_fence or SPV_EXT_float8, so clacc checks their rules itself:
//!
//! SPV_KHR_float_controls2 (000_4719897b3c428f27.txt, "Universal Validation Rules" and the
//! tables it adds):
//! - "It is not valid for an entry point using the FPFastMathDefault execution mode to: Use
//!   the execution modes ContractionOff or SignedZeroInfNanPreserve. Contain any instructions
//!   decorated with NoContraction. Contain any FP Fast Math Mode bitmask containing Fast."
//!   (clacc's modules have one entry point and no other function, so "contain" is checked
//!   over the whole module);
//! - "It is not valid for any instruction to be decorated with both NoContraction and
//!   FPFastMathMode.";
//! - "Any FP Fast Math Mode bitmask that includes the AllowTransform bit must also include the
//!   AllowContract and AllowReassoc bits.";
//! - `FPFastMathDefault` and the bits AllowContract, AllowReassoc, AllowTransform need the
//!   `FloatControls2` capability; `FPFastMathDefault`'s operands are ids
//!   (`OpExecutionModeId`, SPIR-V 1.2), the first a floating-point type, the second a 32-bit
//!   integer constant; "This extension requires SPIR-V 1.2." clacc also refuses two defaults
//!   for one type of one entry point, which would leave the flags ambiguous.
//!
//! SPV_EXT_float8 (004_44c03773e2eb5a1b.txt): `SaturatedToLargestFloat8NormalConversionEXT`
//! "must only be applied to the OpFConvert, OpConvertSToF, or OpConvertUToF instructions with
//! a Result Type that uses an Float8E4M3EXT or Float8E5M2EXT FP Encoding"; a float8 encoding
//! needs the `Float8EXT` capability.
//!
//! SPV_EXT_arithmetic_fence (001_8be044d8536055f1.txt): "Target must be scalar or vector of
//! floating-point type. Result Type must be the same as the return type of the Target
//! instruction."
//!
//! And for all three: a capability an extension introduces needs that extension's
//! `OpExtension`.

use std::collections::{HashMap, HashSet};

use rspirv::dr::{Instruction, Module, Operand};
use rspirv::spirv::{Capability, Decoration, ExecutionMode, FPFastMathMode, Op, Word};

use crate::spec::probe::{Acceptance, Probe};

/// `SPIR-V_1.2` for a module of SPIR-V 1.2: the device's `CL_DEVICE_IL_VERSION` spelling.
pub fn version_name(words: &[u32]) -> String {
    let version = words.get(1).copied().unwrap_or(0);
    format!(
        "SPIR-V_{}.{}",
        (version >> 16) & 0xff,
        (version >> 8) & 0xff
    )
}

/// The checks every module that may reach a driver passes: its SPIR-V version is one the
/// device lists (`il_versions`, its `CL_DEVICE_IL_VERSION` entries), every `OpExtension` it
/// declares is one the probe says the device accepts (an unknown one may end the process inside
/// `clBuildProgram`), and [`check_module`] finds nothing wrong. `Err` says why the module is not
/// handed to the driver.
pub fn guard(words: &[u32], il_versions: &[String], probe: &Probe) -> Result<(), GuardError> {
    let version = version_name(words);
    if !il_versions.contains(&version) {
        return Err(GuardError::Version {
            version,
            listed: il_versions.join(" "),
        });
    }
    let module = load(words).map_err(GuardError::Invalid)?;
    for extension in declared_extensions(&module) {
        match probe.acceptance(&extension) {
            Acceptance::Accepted => {}
            Acceptance::NotAccepted(why) | Acceptance::Unknown(why) => {
                return Err(GuardError::NotAccepted { extension, why })
            }
        }
    }
    check_module(words).map_err(GuardError::Invalid)
}

/// Why [`guard`] keeps a module from the driver.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    #[error("the module is {version}, which the device does not list ({listed})")]
    Version { version: String, listed: String },
    #[error("clacc does not hand the driver a module declaring {extension}: {why}")]
    NotAccepted { extension: String, why: String },
    /// The module breaks the extensions' rules (or is no module): every problem.
    #[error("{}", .0.join("; "))]
    Invalid(Vec<String>),
}

fn load(words: &[u32]) -> Result<Module, Vec<String>> {
    crate::kernel::load_module(words).map_err(|error| vec![error.to_string()])
}

/// The SPIR-V magic number's bytes in a little-endian module: 0x07230203.
const MAGIC_LITTLE_ENDIAN: [u8; 4] = [0x03, 0x02, 0x23, 0x07];

/// The fewest bytes a module has: the 5-word header and one instruction.
const SMALLEST_MODULE: usize = 24;

/// Why bytes cannot be a little-endian SPIR-V module, from its size and magic number alone
/// ([`check_binary`]).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BinaryError {
    #[error("not a SPIR-V module: it does not start with the SPIR-V magic number 0x07230203 (the bytes 03 02 23 07); its first bytes are {0}")]
    NoMagic(String),
    #[error("a big-endian SPIR-V module (the magic number's bytes are 07 23 02 03); clacc takes little-endian modules, as spirv-as writes them")]
    BigEndian,
    #[error("{0} bytes is too short for a SPIR-V module, which has a 20-byte header and at least one instruction (24 bytes or more)")]
    TooShort(usize),
    #[error("{0} bytes is not a whole number of 32-bit words, which a SPIR-V module is")]
    NotWords(usize),
}

/// Whether `bytes` can be a little-endian SPIR-V module: the magic number first (a file that
/// lacks it is something else), then the size (a truncated module has it).
pub fn check_binary(bytes: &[u8]) -> Result<(), BinaryError> {
    if let Some(magic) = bytes.get(..4) {
        if magic == [0x07, 0x23, 0x02, 0x03] {
            return Err(BinaryError::BigEndian);
        }
        if magic != MAGIC_LITTLE_ENDIAN {
            let first = bytes.iter().take(8).map(|b| format!("{b:02x}"));
            return Err(BinaryError::NoMagic(first.collect::<Vec<_>>().join(" ")));
        }
    }
    if bytes.len() < SMALLEST_MODULE {
        return Err(BinaryError::TooShort(bytes.len()));
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(BinaryError::NotWords(bytes.len()));
    }
    Ok(())
}

/// The `OpExtension` names a module declares.
pub fn declared_extensions(module: &Module) -> Vec<String> {
    module
        .extensions
        .iter()
        .filter_map(|instruction| match instruction.operands.first() {
            Some(Operand::LiteralString(name)) => Some(name.clone()),
            _ => None,
        })
        .collect()
}

/// Runs the extension rules of the module doc; `Err` lists every broken rule.
pub fn check_module(words: &[u32]) -> Result<(), Vec<String>> {
    let module = load(words)?;
    let mut problems = Vec::new();
    let facts = Facts::of(&module);
    facts.extension_capabilities(&mut problems);
    facts.float_controls2(&mut problems);
    facts.float8(&mut problems);
    facts.arithmetic_fence(&mut problems);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

/// What the rules look at, gathered once.
struct Facts<'a> {
    module: &'a Module,
    version: (u8, u8),
    extensions: Vec<String>,
    capabilities: HashSet<u32>,
    /// Every instruction with a result id, by that id (types, constants, function bodies).
    definitions: HashMap<Word, &'a Instruction>,
    /// Decorations by target id.
    decorations: HashMap<Word, Vec<(Decoration, &'a [Operand])>>,
}

fn id_of(operand: Option<&Operand>) -> Option<Word> {
    match operand {
        Some(Operand::IdRef(id)) => Some(*id),
        Some(Operand::LiteralBit32(word)) => Some(*word),
        _ => None,
    }
}

impl<'a> Facts<'a> {
    fn of(module: &'a Module) -> Facts<'a> {
        let version = module
            .header
            .as_ref()
            .map(|header| header.version())
            .unwrap_or((1, 0));
        let capabilities = module
            .capabilities
            .iter()
            .filter_map(|instruction| match instruction.operands.first() {
                Some(Operand::Capability(capability)) => Some(*capability as u32),
                _ => None,
            })
            .collect();
        let mut definitions = HashMap::new();
        let bodies = module
            .functions
            .iter()
            .flat_map(|function| function.blocks.iter())
            .flat_map(|block| block.instructions.iter());
        for instruction in module.types_global_values.iter().chain(bodies) {
            if let Some(id) = instruction.result_id {
                definitions.insert(id, instruction);
            }
        }
        let mut decorations: HashMap<Word, Vec<(Decoration, &[Operand])>> = HashMap::new();
        for instruction in &module.annotations {
            if instruction.class.opcode != Op::Decorate {
                continue;
            }
            if let (Some(Operand::IdRef(target)), Some(Operand::Decoration(decoration))) =
                (instruction.operands.first(), instruction.operands.get(1))
            {
                decorations
                    .entry(*target)
                    .or_default()
                    .push((*decoration, &instruction.operands[2..]));
            }
        }
        Facts {
            module,
            version,
            extensions: declared_extensions(module),
            capabilities,
            definitions,
            decorations,
        }
    }

    fn has_capability(&self, capability: Capability) -> bool {
        self.capabilities.contains(&(capability as u32))
    }

    fn has_extension(&self, name: &str) -> bool {
        self.extensions.iter().any(|e| e == name)
    }

    fn decorated(&self, id: Word, decoration: Decoration) -> Option<&'a [Operand]> {
        self.decorations
            .get(&id)?
            .iter()
            .find(|(d, _)| *d == decoration)
            .map(|(_, operands)| *operands)
    }

    /// Whether `type_id` is a float type or a vector of one; `Some(encoding)` when it is
    /// (the FP Encoding operand, if any).
    fn float_type(&self, type_id: Word) -> Option<Option<u32>> {
        let definition = self.definitions.get(&type_id)?;
        match definition.class.opcode {
            Op::TypeFloat => Some(match definition.operands.get(1) {
                Some(Operand::FPEncoding(encoding)) => Some(*encoding as u32),
                Some(Operand::LiteralBit32(encoding)) => Some(*encoding),
                _ => None,
            }),
            Op::TypeVector => self.float_type(id_of(definition.operands.first())?),
            _ => None,
        }
    }

    /// The bits of an `OpConstant` of a 32-bit integer type.
    fn int32_constant(&self, id: Word) -> Option<u32> {
        let definition = self.definitions.get(&id)?;
        if definition.class.opcode != Op::Constant {
            return None;
        }
        let type_definition = self.definitions.get(&definition.result_type?)?;
        let is_int32 = type_definition.class.opcode == Op::TypeInt
            && matches!(
                type_definition.operands.first(),
                Some(Operand::LiteralBit32(32))
            );
        match (is_int32, definition.operands.first()) {
            (true, Some(Operand::LiteralBit32(value))) => Some(*value),
            _ => None,
        }
    }

    fn extension_capabilities(&self, problems: &mut Vec<String>) {
        let needs = [
            (Capability::FloatControls2, "SPV_KHR_float_controls2"),
            (Capability::ArithmeticFenceEXT, "SPV_EXT_arithmetic_fence"),
            (Capability::Float8EXT, "SPV_EXT_float8"),
        ];
        for (capability, extension) in needs {
            if self.has_capability(capability) && !self.has_extension(extension) {
                problems.push(format!(
                    "capability {capability:?} needs OpExtension \"{extension}\""
                ));
            }
        }
    }

    /// Every FP Fast Math Mode bitmask of the module: decorations (with their target) and
    /// `FPFastMathDefault` constants.
    fn fast_math_masks(&self) -> Vec<(String, u32)> {
        let mut masks = Vec::new();
        for (target, decorations) in &self.decorations {
            for (decoration, operands) in decorations {
                if *decoration != Decoration::FPFastMathMode {
                    continue;
                }
                let bits = match operands.first() {
                    Some(Operand::FPFastMathMode(mode)) => mode.bits(),
                    Some(Operand::LiteralBit32(bits)) => *bits,
                    _ => continue,
                };
                masks.push((format!("FPFastMathMode of %{target}"), bits));
            }
        }
        for (_, mode, operands) in self.execution_modes() {
            if mode == ExecutionMode::FPFastMathDefault {
                if let Some(bits) = id_of(operands.get(1)).and_then(|id| self.int32_constant(id)) {
                    masks.push(("FPFastMathDefault".to_string(), bits));
                }
            }
        }
        masks.sort();
        masks
    }

    /// (entry point, mode, operands after the mode) of every execution mode.
    fn execution_modes(&self) -> Vec<(Word, ExecutionMode, &'a [Operand])> {
        self.module
            .execution_modes
            .iter()
            .filter_map(|instruction| {
                match (instruction.operands.first(), instruction.operands.get(1)) {
                    (Some(Operand::IdRef(entry)), Some(Operand::ExecutionMode(mode))) => {
                        Some((*entry, *mode, &instruction.operands[2..]))
                    }
                    _ => None,
                }
            })
            .collect()
    }

    fn float_controls2(&self, problems: &mut Vec<String>) {
        let transform = FPFastMathMode::ALLOW_TRANSFORM.bits();
        let contract_reassoc =
            FPFastMathMode::ALLOW_CONTRACT.bits() | FPFastMathMode::ALLOW_REASSOC.bits();
        let new_bits = transform | contract_reassoc;
        for (what, bits) in self.fast_math_masks() {
            if bits & transform != 0 && bits & contract_reassoc != contract_reassoc {
                problems.push(format!(
                    "{what} includes AllowTransform without AllowContract and AllowReassoc"
                ));
            }
            if bits & new_bits != 0 && !self.has_capability(Capability::FloatControls2) {
                problems.push(format!(
                    "{what} uses AllowContract/AllowReassoc/AllowTransform without the \
                     FloatControls2 capability"
                ));
            }
        }
        for (target, decorations) in &self.decorations {
            let has = |wanted: Decoration| decorations.iter().any(|(d, _)| *d == wanted);
            if has(Decoration::NoContraction) && has(Decoration::FPFastMathMode) {
                problems.push(format!(
                    "%{target} is decorated with both NoContraction and FPFastMathMode"
                ));
            }
        }
        let modes = self.execution_modes();
        let mut defaults: HashSet<(Word, Word)> = HashSet::new();
        let mut entries_with_default = HashSet::new();
        for (entry, mode, operands) in &modes {
            if *mode != ExecutionMode::FPFastMathDefault {
                continue;
            }
            entries_with_default.insert(*entry);
            if !self.has_capability(Capability::FloatControls2) {
                problems.push("FPFastMathDefault without the FloatControls2 capability".into());
            }
            if self.version < (1, 2) {
                problems.push(format!(
                    "FPFastMathDefault needs OpExecutionModeId (SPIR-V 1.2); the module is {}.{}",
                    self.version.0, self.version.1
                ));
            }
            let target = id_of(operands.first());
            match target {
                Some(id) if self.float_type(id).is_some() => {
                    if !defaults.insert((*entry, id)) {
                        problems.push(format!(
                            "two FPFastMathDefault execution modes for type %{id}"
                        ));
                    }
                }
                _ => problems
                    .push("FPFastMathDefault's Target Type is not a floating-point type".into()),
            }
            if id_of(operands.get(1))
                .and_then(|id| self.int32_constant(id))
                .is_none()
            {
                problems.push(
                    "FPFastMathDefault's Fast-Math Mode is not a 32-bit integer constant".into(),
                );
            }
        }
        if !entries_with_default.is_empty() {
            for (entry, mode, _) in &modes {
                if entries_with_default.contains(entry)
                    && matches!(
                        mode,
                        ExecutionMode::ContractionOff | ExecutionMode::SignedZeroInfNanPreserve
                    )
                {
                    problems.push(format!(
                        "an entry point using FPFastMathDefault also uses {mode:?}"
                    ));
                }
            }
            for (target, decorations) in &self.decorations {
                if decorations
                    .iter()
                    .any(|(d, _)| *d == Decoration::NoContraction)
                {
                    problems.push(format!(
                        "an entry point using FPFastMathDefault contains %{target} decorated \
                         with NoContraction"
                    ));
                }
            }
            for (what, bits) in self.fast_math_masks() {
                if bits & FPFastMathMode::FAST.bits() != 0 {
                    problems.push(format!(
                        "an entry point using FPFastMathDefault contains {what} with Fast"
                    ));
                }
            }
        }
    }

    fn float8(&self, problems: &mut Vec<String>) {
        let float8 = |encoding: Option<u32>| matches!(encoding, Some(4214) | Some(4215));
        for definition in self.definitions.values() {
            if definition.class.opcode == Op::TypeFloat
                && float8(self.float_type(definition.result_id.unwrap_or(0)).flatten())
                && !self.has_capability(Capability::Float8EXT)
            {
                problems.push("a float8 type without the Float8EXT capability".into());
            }
        }
        for target in self.decorations.keys() {
            if self
                .decorated(
                    *target,
                    Decoration::SaturatedToLargestFloat8NormalConversionEXT,
                )
                .is_none()
            {
                continue;
            }
            let definition = self.definitions.get(target);
            let conversion = definition.is_some_and(|d| {
                matches!(
                    d.class.opcode,
                    Op::FConvert | Op::ConvertSToF | Op::ConvertUToF
                )
            });
            let to_float8 = definition
                .and_then(|d| d.result_type)
                .and_then(|t| self.float_type(t))
                .is_some_and(float8);
            if !conversion || !to_float8 {
                problems.push(format!(
                    "SaturatedToLargestFloat8NormalConversionEXT on %{target}, which is not an \
                     OpFConvert, OpConvertSToF or OpConvertUToF to a float8 type"
                ));
            }
        }
    }

    fn arithmetic_fence(&self, problems: &mut Vec<String>) {
        for definition in self.definitions.values() {
            if definition.class.opcode != Op::ArithmeticFenceEXT {
                continue;
            }
            let result_type = definition.result_type;
            let target_type = id_of(definition.operands.first())
                .and_then(|target| self.definitions.get(&target))
                .and_then(|target| target.result_type);
            let float = result_type.and_then(|t| self.float_type(t)).is_some();
            if !float || result_type != target_type {
                problems.push(format!(
                    "OpArithmeticFenceEXT %{} must return its float Target's own type",
                    definition.result_id.unwrap_or(0)
                ));
            }
        }
    }
}

#[cfg(test)]
mod binary_tests {
    use super::*;

    #[test]
    fn a_binary_is_refused_for_what_is_wrong_with_it() {
        let module = |length: usize| {
            let mut bytes = MAGIC_LITTLE_ENDIAN.to_vec();
            bytes.resize(length, 0);
            bytes
        };
        // The magic number is there: the size is what is wrong.
        assert_eq!(check_binary(&module(22)), Err(BinaryError::TooShort(22)));
        assert_eq!(check_binary(&module(20)), Err(BinaryError::TooShort(20)));
        assert_eq!(check_binary(&module(26)), Err(BinaryError::NotWords(26)));
        assert_eq!(check_binary(&module(24)), Ok(()));
        assert_eq!(
            check_binary(&[0x07, 0x23, 0x02, 0x03, 0, 0, 0, 0]),
            Err(BinaryError::BigEndian)
        );
        assert_eq!(
            check_binary(b"\x7fELF\x02\x01\x01\x00\x00"),
            Err(BinaryError::NoMagic("7f 45 4c 46 02 01 01 00".into()))
        );
        assert_eq!(check_binary(&[0x03, 0x02]), Err(BinaryError::TooShort(2)));
    }
}
