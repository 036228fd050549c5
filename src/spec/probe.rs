//! What a device's driver accepts of SPIR-V, as far as it could be found out: the answer of
//! [`crate::device::opencl::probe`]'s queries or of [`crate::run::extension::probe`]'s isolated builds.

use std::fmt;

use rspirv::spirv::Capability;

/// Where a [`Probe`]'s answers come from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ProbeSource {
    /// The device's `cl_khr_spirv_queries`.
    SpirvQueries,
    /// Minimal modules built in an isolated process, one per extension clacc checks.
    IsolatedBuild,
    /// Nothing could be asked; the text says why.
    Unavailable(String),
}

/// What the driver accepts, as far as it could be found out.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Probe {
    pub source: ProbeSource,
    /// SPIR-V extensions the driver accepts: every one the queries list, or those of
    /// [`crate::spec::extension::EXTENSIONS`] whose probe module built.
    pub extensions: Vec<String>,
    /// SPIR-V capabilities the driver accepts (queries only; empty otherwise).
    pub capabilities: Vec<u32>,
    /// Extended instruction sets (queries only).
    pub extended_instruction_sets: Vec<String>,
    /// Extensions whose probe module was refused or killed the isolated process, with what
    /// happened (isolated builds only).
    pub refused: Vec<(String, String)>,
}

/// The answer for one extension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acceptance {
    Accepted,
    /// The driver does not accept it; the text says how that is known.
    NotAccepted(String),
    /// Nobody could tell without risking the process; the text says why.
    Unknown(String),
}

impl Probe {
    /// A probe that could not ask anything, for `reason`.
    pub fn unavailable(reason: impl Into<String>) -> Probe {
        Probe {
            source: ProbeSource::Unavailable(reason.into()),
            extensions: Vec::new(),
            capabilities: Vec::new(),
            extended_instruction_sets: Vec::new(),
            refused: Vec::new(),
        }
    }

    /// Whether the driver accepts `extension`, and how that is known.
    pub fn acceptance(&self, extension: &str) -> Acceptance {
        if self.extensions.iter().any(|e| e == extension) {
            return Acceptance::Accepted;
        }
        match &self.source {
            ProbeSource::SpirvQueries => Acceptance::NotAccepted(format!(
                "the device does not accept {extension} (not in its CL_DEVICE_SPIRV_EXTENSIONS_KHR)"
            )),
            ProbeSource::IsolatedBuild => match self.refused.iter().find(|(e, _)| e == extension) {
                Some((_, what)) => Acceptance::NotAccepted(format!(
                    "the device does not accept {extension} (an isolated build of a module \
                     declaring it {what})"
                )),
                None => Acceptance::Unknown(format!("{extension} was not probed")),
            },
            ProbeSource::Unavailable(reason) => {
                Acceptance::Unknown(format!("{extension} support unknown ({reason})"))
            }
        }
    }

    /// Whether the driver accepts `capability`, where the queries tell (`None` otherwise).
    pub fn accepts_capability(&self, capability: Capability) -> Option<bool> {
        (self.source == ProbeSource::SpirvQueries)
            .then(|| self.capabilities.contains(&(capability as u32)))
    }

    /// One line for `clacc devices`: `SPV_KHR_bit_instructions SPV_... (cl_khr_spirv_queries)`,
    /// or why nothing is known.
    pub fn describe(&self) -> String {
        let list = if self.extensions.is_empty() {
            "none".to_string()
        } else {
            self.extensions.join(" ")
        };
        match &self.source {
            ProbeSource::SpirvQueries => format!("{list} (cl_khr_spirv_queries)"),
            ProbeSource::IsolatedBuild => {
                let refused: Vec<&str> = self.refused.iter().map(|(e, _)| e.as_str()).collect();
                if refused.is_empty() {
                    format!("{list} (isolated probe builds)")
                } else {
                    format!(
                        "{list} (isolated probe builds; refused: {})",
                        refused.join(" ")
                    )
                }
            }
            ProbeSource::Unavailable(reason) => format!("unknown ({reason})"),
        }
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}
