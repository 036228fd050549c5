//! What the host reads from a compute shader's SPIR-V before handing it to the driver: that it
//! is SPIR-V at all, its `GLCompute` entry point, the local size, and how many storage buffers
//! set 0 binds. A driver is not required to survive malformed SPIR-V (valid usage), so clacc
//! refuses such a module itself, with the reason, instead of passing it on.

/// The facts [`read`] finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderFacts {
    /// `LocalSize`'s x (the y and z must be 1: launches are one-dimensional).
    pub local_size: u32,
    /// One more than the highest `Binding` decorated in `DescriptorSet 0` (0 when none).
    pub bindings: u32,
}

const MAGIC: u32 = 0x0723_0203;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_DECORATE: u32 = 71;
const EXECUTION_MODEL_GLCOMPUTE: u32 = 5;
const EXECUTION_MODE_LOCAL_SIZE: u32 = 17;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;

/// The little-endian words of `bytes`, or why they are not a SPIR-V module.
pub fn words_of(bytes: &[u8]) -> Result<Vec<u32>, String> {
    if !bytes.len().is_multiple_of(4) || bytes.len() < 20 {
        return Err(format!(
            "not a SPIR-V module: {} bytes (a header of 5 words and whole words are needed)",
            bytes.len()
        ));
    }
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    if words[0] != MAGIC {
        return Err(format!(
            "not a little-endian SPIR-V module: magic number {:#010x}",
            words[0]
        ));
    }
    Ok(words)
}

/// The string operand starting at `words[0]` (NUL-terminated, packed little-endian).
fn string_at(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Reads `words` for the `GLCompute` entry point `entry_point`.
pub fn read(words: &[u32], entry_point: &str) -> Result<ShaderFacts, String> {
    let mut entry_id = None;
    let mut compute_names = Vec::new();
    let mut local_sizes = Vec::new();
    let mut set_of = std::collections::HashMap::new();
    let mut binding_of = std::collections::HashMap::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let opcode = words[at] & 0xffff;
        if count == 0 || at + count > words.len() {
            return Err(format!(
                "malformed SPIR-V: instruction at word {at} overruns the module"
            ));
        }
        let operands = &words[at + 1..at + count];
        match (opcode, operands) {
            (OP_ENTRY_POINT, [model, id, name @ ..]) if *model == EXECUTION_MODEL_GLCOMPUTE => {
                let name = string_at(name);
                if name == entry_point {
                    entry_id = Some(*id);
                }
                compute_names.push(name);
            }
            (OP_EXECUTION_MODE, [id, mode, x, y, z]) if *mode == EXECUTION_MODE_LOCAL_SIZE => {
                local_sizes.push((*id, [*x, *y, *z]));
            }
            (OP_DECORATE, [target, decoration, value]) if *decoration == DECORATION_BINDING => {
                binding_of.insert(*target, *value);
            }
            (OP_DECORATE, [target, decoration, value])
                if *decoration == DECORATION_DESCRIPTOR_SET =>
            {
                set_of.insert(*target, *value);
            }
            _ => {}
        }
        at += count;
    }
    let Some(entry_id) = entry_id else {
        return Err(if compute_names.is_empty() {
            format!("the module has no GLCompute entry point (clacc looks for `{entry_point}`)")
        } else {
            format!(
                "the module has no GLCompute entry point `{entry_point}` (it has: {})",
                compute_names.join(", ")
            )
        });
    };
    let local_size = match local_sizes.iter().find(|(id, _)| *id == entry_id) {
        Some((_, [x, 1, 1])) if *x > 0 => *x,
        Some((_, size)) => {
            return Err(format!(
                "LocalSize {} {} {}: clacc's launches are one-dimensional (x > 0, y = z = 1)",
                size[0], size[1], size[2]
            ))
        }
        None => {
            return Err(format!(
                "the entry point `{entry_point}` has no LocalSize execution mode"
            ))
        }
    };
    let bindings = binding_of
        .iter()
        .filter(|(target, _)| set_of.get(target) == Some(&0))
        .map(|(_, binding)| binding + 1)
        .max()
        .unwrap_or(0);
    Ok(ShaderFacts {
        local_size,
        bindings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rspirv::binary::Assemble;
    use rspirv::dr::{Builder, Operand};
    use rspirv::spirv;

    /// A module of `entry_point` with `local_size` and storage variables at bindings 0 and 2.
    fn module(entry_point: &str, local_size: [u32; 3]) -> Vec<u32> {
        let mut b = Builder::new();
        b.capability(spirv::Capability::Shader);
        b.memory_model(spirv::AddressingModel::Logical, spirv::MemoryModel::GLSL450);
        let void = b.type_void();
        let function_type = b.type_function(void, vec![]);
        let uint = b.type_int(32, 0);
        let block = b.type_struct([uint]);
        let pointer = b.type_pointer(None, spirv::StorageClass::StorageBuffer, block);
        let first = b.variable(pointer, None, spirv::StorageClass::StorageBuffer, None);
        let third = b.variable(pointer, None, spirv::StorageClass::StorageBuffer, None);
        for (variable, binding) in [(first, 0), (third, 2)] {
            b.decorate(
                variable,
                spirv::Decoration::DescriptorSet,
                [Operand::LiteralBit32(0)],
            );
            b.decorate(
                variable,
                spirv::Decoration::Binding,
                [Operand::LiteralBit32(binding)],
            );
        }
        let main = b
            .begin_function(void, None, spirv::FunctionControl::NONE, function_type)
            .unwrap();
        b.begin_block(None).unwrap();
        b.ret().unwrap();
        b.end_function().unwrap();
        b.entry_point(
            spirv::ExecutionModel::GLCompute,
            main,
            entry_point,
            [first, third],
        );
        b.execution_mode(main, spirv::ExecutionMode::LocalSize, local_size);
        b.module().assemble()
    }

    fn bytes_of(words: &[u32]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn reads_the_local_size_and_the_bindings_of_the_entry_point() {
        let words = words_of(&bytes_of(&module("clacc_kernel", [64, 1, 1]))).unwrap();
        assert_eq!(
            read(&words, "clacc_kernel"),
            Ok(ShaderFacts {
                local_size: 64,
                bindings: 3
            })
        );
    }

    #[test]
    fn refuses_what_is_not_a_usable_compute_module() {
        assert!(words_of(&[0; 7]).unwrap_err().contains("7 bytes"));
        assert!(words_of(&[0; 20]).unwrap_err().contains("magic"));
        let other = module("main", [64, 1, 1]);
        assert!(read(&other, "clacc_kernel")
            .unwrap_err()
            .contains("it has: main"));
        let square = module("clacc_kernel", [8, 8, 1]);
        assert!(read(&square, "clacc_kernel")
            .unwrap_err()
            .contains("one-dimensional"));
        let mut overrun = module("clacc_kernel", [64, 1, 1]);
        // The first instruction (OpCapability) claims more words than the module has.
        overrun[5] = (1000 << 16) | (overrun[5] & 0xffff);
        assert!(read(&overrun, "clacc_kernel")
            .unwrap_err()
            .contains("overruns"));
    }
}
