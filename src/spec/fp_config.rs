//! A device's floating-point capabilities as data: the `cl_device_fp_config` bit field the
//! device reports, read by the judge (which never asks a device itself).

// The bits' values are the OpenCL headers' (one source, through the bindings the device layer
// uses); nothing else of OpenCL is needed here.
use opencl3::device::{
    CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT, CL_FP_DENORM, CL_FP_FMA, CL_FP_INF_NAN,
    CL_FP_ROUND_TO_INF, CL_FP_ROUND_TO_NEAREST, CL_FP_ROUND_TO_ZERO, CL_FP_SOFT_FLOAT,
};

/// A device's CL_DEVICE_{HALF,SINGLE,DOUBLE}_FP_CONFIG bit field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FpConfig(pub u64);

impl FpConfig {
    pub fn denormals(self) -> bool {
        self.0 & CL_FP_DENORM != 0
    }
    pub fn inf_nan(self) -> bool {
        self.0 & CL_FP_INF_NAN != 0
    }
    pub fn round_to_nearest(self) -> bool {
        self.0 & CL_FP_ROUND_TO_NEAREST != 0
    }
    pub fn round_to_zero(self) -> bool {
        self.0 & CL_FP_ROUND_TO_ZERO != 0
    }
    pub fn round_to_inf(self) -> bool {
        self.0 & CL_FP_ROUND_TO_INF != 0
    }
    pub fn fma(self) -> bool {
        self.0 & CL_FP_FMA != 0
    }
    pub fn correctly_rounded_divide_sqrt(self) -> bool {
        self.0 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT != 0
    }
    pub fn soft_float(self) -> bool {
        self.0 & CL_FP_SOFT_FLOAT != 0
    }

    /// The set bits as short words, e.g. `denorm inf-nan rte fma`.
    pub fn describe(self) -> String {
        let flags = [
            (self.denormals(), "denorm"),
            (self.inf_nan(), "inf-nan"),
            (self.round_to_nearest(), "rte"),
            (self.round_to_zero(), "rtz"),
            (self.round_to_inf(), "rtp/rtn"),
            (self.fma(), "fma"),
            (self.correctly_rounded_divide_sqrt(), "cr-div-sqrt"),
            (self.soft_float(), "soft-float"),
        ];
        let words: Vec<&str> = flags
            .iter()
            .filter(|(set, _)| *set)
            .map(|(_, word)| *word)
            .collect();
        if words.is_empty() {
            "none".to_string()
        } else {
            words.join(" ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fp_config_words_follow_the_bits() {
        let config = FpConfig(CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST);
        assert_eq!(config.describe(), "denorm inf-nan rte");
        assert!(!config.correctly_rounded_divide_sqrt());
        assert_eq!(FpConfig(0).describe(), "none");
    }
}
