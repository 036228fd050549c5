//! Float pow and powr over columns of float pairs, where `x` is positive and finite and `y`
//! finite: `x^y = 2^(y·log2 x)` correctly rounded to float, or NaN where undecided; pow's
//! column also takes a negative `x` to an integer power ([`powf`]). Everything else is NaN,
//! left to the scalar tiers: zeros, infinities and NaN arguments, and powr's negative `x`.
//! For positive pairs pow and powr agree (powr(1, y) = 1 for finite y, as pow's). `u` is
//! 2^-53.
//!
//! **log2 x in double-double.** `x = 2^e·m`, `m` from the double's bits in [1, 2); where its
//! top seven fraction bits (`i`) are 64 or more, `m` is halved and `e` raised, so `m` lies in
//! [3/4, 3/2). A table gives, per `i`, `R_i`, 1 over the middle of `m`'s range to 20
//! significant bits (exactly 1 for `i = 0` and 127, the ranges that start and end at 1), and
//! `T_i = −log2 R_i` as a double and the double nearest the rest (within `2^-106·|T_i|`).
//! `z = m·R_i − 1` is exact (`m·R_i` has at most 24 + 20 bits; Sterbenz) with `|z| <= 2^-8`
//! (`2^-7` for `i = 0`), and `log2 x = e + T_i + log2(1 + z)`, `ln(1 + z) = z + lo`,
//! `lo = z²·(−1/2 + z/3 − … + z^7/9)`: the series' truncation is below `|z|^10/10 <=
//! 2^-73.3`, and its evaluation, dominated by `−1/2`, errs by at most `3·u·|lo|`
//! (`|lo| <= 2^-14.9`). With `1/ln 2 = IL_HI + IL_LO` (within `2^-106`):
//! - `e + T_hi` (two-sum), `z·IL_HI` (Dekker's product) and their sum (two-sum) are exact:
//!   `L_HI` is the sum's high part;
//! - `L_LO` adds the low parts and `T_lo + z·IL_LO + lo·IL_HI`, each below `2^-14` in
//!   magnitude, with roundings of at most `2^-67.4` in all where `e = 0` (a few `u²·|L|`
//!   where it is not).
//!
//! `|log2 x| >= 2^-7.5` wherever `i` is not 0 or 127 or `e` is not 0 (the table's `T_i` are
//! at least 2^-6.9 from 0 and `|z·IL| <= 2^-7.6`), so `L_HI + L_LO` lies within `2^-59`
//! of `log2 x`, relative; where `i` is 0 or 127 and `e = 0`, `T = 0`, `log2 x ≈ 1.44·z`
//! and the errors above are relative to `z²` or smaller: within `2^-60`, relative.
//!
//! **t = y·log2 x.** `L_HI` is split (Veltkamp) into halves of at most 26 and 27 bits,
//! whose products with the float `y` (24 bits) are exact; their two-sum gives `t_hi` and
//! `t_lo` adds the rest and `y·L_LO` (`|L_LO| <= 2^-6·|L_HI|`), rounded by at most
//! `2^-58·|t|`. So `t` errs by at most `2^-57.9·|t|`. Where `|t_hi| > 160` it is taken as ±160
//! (`t_lo` as 0): `x^y` is then past the float overflow threshold or below half the smallest
//! subnormal, as `2^±160` is, so the value rounds alike.
//!
//! **2^t** as [`crate::reference::exp_column`]: `k = round(t_hi)`, `r = (t_hi − k) + t_lo`
//! (the difference exact, the sum rounded by `2^-54`), `s = r·ln 2` (rounded by `2^-54.5`),
//! `|s| <= 0.35`, `e^s` by the Taylor polynomial of degree 12 within `2^-47.2` (that module's
//! bound), times `2^k` exactly (`|k| <= 160`). Where `|t| <= 160`, `t`'s error is at most
//! `2^-50.6`, `e^…`'s relative error at most `2^-51.1`; with `r`'s and `s`'s roundings the
//! lane's value lies within `2^-46.9` of `x^y`, relative.
//!
//! **The rounding test** ([`crate::reference::exp_column::rounded`], half-width `2^-44`) keeps a float only where it
//! is the correctly rounded one; exact results (`4^1.5 = 8`) are kept, midpoints (`4097^2`,
//! 25 significant bits) never.

use crate::num::fp::two_sum;
use crate::reference::exp_column::{rounded, ROUNDING_SHIFT, TAYLOR};

/// Per `i`: 1 over the middle of `m`'s range, to 20 significant bits.
const R: [u64; 128] = [
    0x3ff0_0000_0000_0000,
    0x3fef_a11c_0000_0000,
    0x3fef_6310_0000_0000,
    0x3fef_25f6_0000_0000,
    0x3fee_e9c8_0000_0000,
    0x3fee_ae80_0000_0000,
    0x3fee_741a_0000_0000,
    0x3fee_3a92_0000_0000,
    0x3fee_01e0_0000_0000,
    0x3fed_ca02_0000_0000,
    0x3fed_92f2_0000_0000,
    0x3fed_5cac_0000_0000,
    0x3fed_272c_0000_0000,
    0x3fec_f26e_0000_0000,
    0x3fec_be6e_0000_0000,
    0x3fec_8b26_0000_0000,
    0x3fec_5894_0000_0000,
    0x3fec_26b6_0000_0000,
    0x3feb_f584_0000_0000,
    0x3feb_c4fe_0000_0000,
    0x3feb_951e_0000_0000,
    0x3feb_65e2_0000_0000,
    0x3feb_3748_0000_0000,
    0x3feb_094c_0000_0000,
    0x3fea_dbe8_0000_0000,
    0x3fea_af1e_0000_0000,
    0x3fea_82e6_0000_0000,
    0x3fea_5742_0000_0000,
    0x3fea_2c2a_0000_0000,
    0x3fea_01a0_0000_0000,
    0x3fe9_d7a0_0000_0000,
    0x3fe9_ae24_0000_0000,
    0x3fe9_8530_0000_0000,
    0x3fe9_5cbc_0000_0000,
    0x3fe9_34c6_0000_0000,
    0x3fe9_0d50_0000_0000,
    0x3fe8_e652_0000_0000,
    0x3fe8_bfce_0000_0000,
    0x3fe8_99c0_0000_0000,
    0x3fe8_7428_0000_0000,
    0x3fe8_4f00_0000_0000,
    0x3fe8_2a4a_0000_0000,
    0x3fe8_0602_0000_0000,
    0x3fe7_e226_0000_0000,
    0x3fe7_beb4_0000_0000,
    0x3fe7_9baa_0000_0000,
    0x3fe7_7908_0000_0000,
    0x3fe7_56ca_0000_0000,
    0x3fe7_34f0_0000_0000,
    0x3fe7_1378_0000_0000,
    0x3fe6_f260_0000_0000,
    0x3fe6_d1a6_0000_0000,
    0x3fe6_b14a_0000_0000,
    0x3fe6_9148_0000_0000,
    0x3fe6_71a0_0000_0000,
    0x3fe6_5250_0000_0000,
    0x3fe6_3356_0000_0000,
    0x3fe6_14b4_0000_0000,
    0x3fe5_f664_0000_0000,
    0x3fe5_d868_0000_0000,
    0x3fe5_babc_0000_0000,
    0x3fe5_9d62_0000_0000,
    0x3fe5_8056_0000_0000,
    0x3fe5_6398_0000_0000,
    0x3ff5_4726_0000_0000,
    0x3ff5_2b00_0000_0000,
    0x3ff5_0f22_0000_0000,
    0x3ff4_f390_0000_0000,
    0x3ff4_d844_0000_0000,
    0x3ff4_bd3e_0000_0000,
    0x3ff4_a280_0000_0000,
    0x3ff4_8806_0000_0000,
    0x3ff4_6dce_0000_0000,
    0x3ff4_53da_0000_0000,
    0x3ff4_3a28_0000_0000,
    0x3ff4_20b6_0000_0000,
    0x3ff4_0782_0000_0000,
    0x3ff3_ee90_0000_0000,
    0x3ff3_d5da_0000_0000,
    0x3ff3_bd60_0000_0000,
    0x3ff3_a524_0000_0000,
    0x3ff3_8d22_0000_0000,
    0x3ff3_755c_0000_0000,
    0x3ff3_5dce_0000_0000,
    0x3ff3_467a_0000_0000,
    0x3ff3_2f5c_0000_0000,
    0x3ff3_1878_0000_0000,
    0x3ff3_01c8_0000_0000,
    0x3ff2_eb4e_0000_0000,
    0x3ff2_d50a_0000_0000,
    0x3ff2_befa_0000_0000,
    0x3ff2_a91c_0000_0000,
    0x3ff2_9372_0000_0000,
    0x3ff2_7dfa_0000_0000,
    0x3ff2_68b4_0000_0000,
    0x3ff2_539e_0000_0000,
    0x3ff2_3eb8_0000_0000,
    0x3ff2_2a02_0000_0000,
    0x3ff2_157a_0000_0000,
    0x3ff2_0120_0000_0000,
    0x3ff1_ecf4_0000_0000,
    0x3ff1_d8f6_0000_0000,
    0x3ff1_c522_0000_0000,
    0x3ff1_b17c_0000_0000,
    0x3ff1_9e02_0000_0000,
    0x3ff1_8ab0_0000_0000,
    0x3ff1_778a_0000_0000,
    0x3ff1_648e_0000_0000,
    0x3ff1_51ba_0000_0000,
    0x3ff1_3f0e_0000_0000,
    0x3ff1_2c8c_0000_0000,
    0x3ff1_1a30_0000_0000,
    0x3ff1_07fc_0000_0000,
    0x3ff0_f5ee_0000_0000,
    0x3ff0_e406_0000_0000,
    0x3ff0_d244_0000_0000,
    0x3ff0_c0a8_0000_0000,
    0x3ff0_af30_0000_0000,
    0x3ff0_9ddc_0000_0000,
    0x3ff0_8cac_0000_0000,
    0x3ff0_7ba0_0000_0000,
    0x3ff0_6ab6_0000_0000,
    0x3ff0_59ee_0000_0000,
    0x3ff0_494a_0000_0000,
    0x3ff0_38c6_0000_0000,
    0x3ff0_2864_0000_0000,
    0x3ff0_1824_0000_0000,
    0x3ff0_0000_0000_0000,
];

/// Per `i`: −log2 `R_i`, the double nearest.
const T_HIGH: [u64; 128] = [
    0x0000_0000_0000_0000,
    0x3f91_3650_1c41_be5b,
    0x3f9c_9383_77c7_91eb,
    0x3fa3_ed36_e439_e6b7,
    0x3fa9_85bf_0a9f_1682,
    0x3faf_1395_0dd6_1d4b,
    0x3fb2_4b63_564e_b2f2,
    0x3fb5_07b1_cf1c_7cdc,
    0x3fb7_bef0_080d_198d,
    0x3fba_7110_28a0_3916,
    0x3fbd_1e36_99ef_d061,
    0x3fbf_c670_5edc_941d,
    0x3fc1_34e5_c346_9e60,
    0x3fc2_842b_97a6_467d,
    0x3fc3_d111_c4a6_d523,
    0x3fc5_1bad_dd18_fcc8,
    0x3fc6_63fc_4cb0_9b06,
    0x3fc7_a9f9_af9e_2e08,
    0x3fc8_edca_74ca_c696,
    0x3fca_2f5f_1fed_da7e,
    0x3fcb_6ed0_37e9_933b,
    0x3fcc_ac1c_3b7e_327c,
    0x3fcd_e741_df85_6d7b,
    0x3fcf_204d_b90e_a104,
    0x3fd0_2bad_58e1_56f8,
    0x3fd0_c626_a3fb_3e77,
    0x3fd1_5fa7_917f_b548,
    0x3fd1_f822_8f75_56f8,
    0x3fd2_8fad_14ac_b4d1,
    0x3fd3_2639_bfc0_45f8,
    0x3fd3_bbd0_61a3_e15c,
    0x3fd4_5080_4966_0cb4,
    0x3fd4_e435_13c0_72ac,
    0x3fd5_7705_a280_4cc9,
    0x3fd6_08f3_8798_330d,
    0x3fd6_99f1_b764_4bfa,
    0x3fd7_2a17_ffb0_07f6,
    0x3fd7_b959_8b4b_3912,
    0x3fd8_47bf_cf2b_9b65,
    0x3fd8_d545_75cb_b376,
    0x3fd9_61fb_e7d0_38cc,
    0x3fd9_edd6_7b60_77b9,
    0x3fda_78df_5c73_96e5,
    0x3fdb_0319_4cb2_058a,
    0x3fdb_8c87_30ee_e185,
    0x3fdc_152c_1169_259d,
    0x3fdc_9d03_3c0a_1dfd,
    0x3fdd_2417_c78f_84d7,
    0x3fdd_aa65_32d9_d830,
    0x3fde_2fee_f39d_c32c,
    0x3fde_b4b8_a426_7991,
    0x3fdf_38c6_038c_67af,
    0x3fdf_bc12_d2aa_2d48,
    0x3fe0_1f55_937e_0a5d,
    0x3fe0_6045_7a73_50e3,
    0x3fe0_a0db_370e_d35d,
    0x3fe0_e118_f50f_453e,
    0x3fe1_20f8_9639_869b,
    0x3fe1_6084_b23a_f3a9,
    0x3fe1_9fb7_39fe_1c24,
    0x3fe1_de96_c2e1_1a1e,
    0x3fe2_1d1d_3bf9_937a,
    0x3fe2_5b51_5b99_e5f1,
    0x3fe2_9931_606e_c643,
    0xbfda_5280_4704_ebdf,
    0xbfd9_d809_ce72_7336,
    0xbfd9_5e2b_c084_2f90,
    0xbfd8_e4fa_f41f_99a4,
    0xbfd8_6c60_5768_9e8a,
    0xbfd7_f45f_0ac0_55ca,
    0xbfd7_7d03_27c4_30a7,
    0xbfd7_063e_00b7_efb5,
    0xbfd6_9009_9b9c_b3d9,
    0xbfd6_1a72_0166_73a9,
    0xbfd5_a571_2c9f_6a2f,
    0xbfd5_3100_ef4a_da69,
    0xbfd4_bd1a_f2c8_6ce2,
    0xbfd4_49d4_8318_0645,
    0xbfd3_d714_c136_0ce5,
    0xbfd3_64de_5974_6ceb,
    0xbfd2_f33d_63ac_6a69,
    0xbfd2_8221_d505_ffb7,
    0xbfd2_1197_c3be_990d,
    0xbfd1_a18e_ddf2_2e2d,
    0xbfd1_3213_37e2_905b,
    0xbfd0_c314_3842_8a13,
    0xbfd0_54a7_9ca7_c3be,
    0xbfcf_cd65_dedb_c12c,
    0xbfce_f284_7fa5_6d2d,
    0xbfce_18b0_0288_6e8a,
    0xbfcd_3fd9_a32c_a6c6,
    0xbfcc_67f2_4933_fe3a,
    0xbfcb_9112_4bbb_16f6,
    0xbfca_bb2a_7463_1be2,
    0xbfc9_e63f_4853_f27d,
    0xbfc9_1241_2d5a_f6a5,
    0xbfc8_3f34_72af_22e8,
    0xbfc7_6d1d_6efa_8d9b,
    0xbfc6_9bec_13e5_da46,
    0xbfc5_cba4_815d_2768,
    0xbfc4_fc4a_de5d_274c,
    0xbfc4_2de3_58d3_34ca,
    0xbfc3_6048_942c_cde3,
    0xbfc2_93a8_00d9_7e62,
    0xbfc1_c7f0_ea0d_9b1d,
    0xbfc0_fcfd_373a_57ea,
    0xbfc0_32fa_b179_b79b,
    0xbfbe_d3b0_592f_5c51,
    0xbfbd_4308_4c62_ed7d,
    0xbfbb_b404_5fae_9a73,
    0xbfba_26d6_c4bc_a3b3,
    0xbfb8_9b30_df1e_bccd,
    0xbfb7_1144_c981_2025,
    0xbfb5_88ee_483c_3392,
    0xbfb4_0234_2d6b_031e,
    0xbfb2_7d1d_5617_3380,
    0xbfb0_f9b0_aa0a_6eca,
    0xbfae_ef91_aba4_29e0,
    0xbfab_eed8_9766_7a79,
    0xbfa8_f143_105d_a0b3,
    0xbfa5_f6de_23af_4cf7,
    0xbfa2_ff5c_f561_236f,
    0xbfa0_0acb_a4e8_a4c3,
    0xbf9a_3322_351d_beac,
    0xbf94_5609_19e9_ccd5,
    0xbf8c_fe32_b619_9e97,
    0xbf81_5cd7_9ac6_0bbb,
    0x0000_0000_0000_0000,
];

/// Per `i`: the double nearest −log2 `R_i` − `T_HIGH[i]`.
const T_LOW: [u64; 128] = [
    0x0000_0000_0000_0000,
    0x3c1d_391b_2eaf_6e8f,
    0xbc33_8f62_21ca_17ba,
    0x3c44_cb42_3fbe_2130,
    0x3c29_d054_4bf2_b55b,
    0xbc45_444c_fc3c_2d29,
    0x3c4a_49d5_8dfd_1898,
    0x3c33_8b4e_fb3f_4f66,
    0xbc58_54b2_f783_7b85,
    0x3c38_981b_8b80_6e09,
    0xbc30_2daf_d463_eb28,
    0x3c30_9b57_b7b7_5b31,
    0x3c4a_830d_faef_6d3f,
    0x3c6f_f50b_c72a_7e1d,
    0xbc42_39e4_6540_c608,
    0x3c5d_86d6_8430_e722,
    0xbc6d_896f_ab5b_5f80,
    0x3c62_0e3e_9eef_9491,
    0xbc42_8235_4ef5_97c3,
    0xbc68_2770_b8aa_d564,
    0x3c6d_e845_f030_33f5,
    0x3c66_87b7_5f36_d7c3,
    0xbc4d_4b32_fcdf_f51e,
    0x3c56_bfef_3b66_60cc,
    0xbc7a_7b3a_c39e_7e93,
    0xbc63_bb3e_5c68_e6f8,
    0xbc75_151c_d70e_9ae5,
    0xbc61_4ae4_f209_9310,
    0x3c12_f053_efb0_073e,
    0x3c7c_dfb1_4f37_225b,
    0xbc52_124c_bbde_bec2,
    0x3c76_3dee_e953_3949,
    0x3c3a_edee_7445_6314,
    0xbc7f_00ad_cc23_8671,
    0x3c7e_3474_3552_c452,
    0x3c7c_f0d4_8ba0_1548,
    0x3c65_90bf_b737_7985,
    0xbc44_e258_aeb2_c579,
    0x3c6a_3bc6_0cff_15d1,
    0xbc51_8e87_bdb6_ebc2,
    0xbc77_ae9e_efe0_29ba,
    0x3c1e_66b4_be81_9a59,
    0x3c79_3a15_0e91_09bb,
    0xbc68_6c89_2bc0_f92b,
    0x3c7e_223e_ff80_10fb,
    0x3c5e_2e34_8bc7_e190,
    0x3c73_7e48_2dbe_df4c,
    0x3c69_e164_335f_37d9,
    0x3c72_e8de_7033_6b59,
    0xbc57_1267_23e7_acd8,
    0x3c66_4055_b0f9_8598,
    0x3c66_f1ce_8490_7cef,
    0xbc64_b073_e7e5_6d9f,
    0xbc7d_1fd9_464d_4e24,
    0xbc65_318e_2723_1144,
    0x3c72_892b_40bb_3cb9,
    0x3c42_14c2_4cbe_3565,
    0x3c70_5856_7198_1b36,
    0xbc7a_dfbb_2db1_eddf,
    0xbc8b_4101_473c_86a1,
    0x3c8e_a2d6_825b_cb46,
    0xbc27_46f6_1cff_2d71,
    0x3c63_0c34_2a29_44b9,
    0xbc8e_07e3_5909_7773,
    0x3c75_29e3_4b32_74b3,
    0xbc76_4191_af6f_e99b,
    0x3c50_9c2b_2a6f_3e26,
    0x3c50_8b3a_2492_c174,
    0x3c7f_5261_fe1e_b098,
    0x3c57_9cf7_664b_cd1e,
    0x3c73_061b_72ed_f0f9,
    0x3c7e_5f58_1a53_3a3a,
    0x3c5c_251b_10bd_7006,
    0xbc79_67e0_8f9d_e077,
    0xbc2a_c842_e8ab_bb0b,
    0xbc75_b69c_fa40_7faf,
    0xbc79_3fe3_0de4_96a2,
    0xbc78_5f59_b3b7_9cd4,
    0xbc78_7356_c9da_fce0,
    0xbc6b_3364_fb99_c572,
    0x3c7e_d03d_88c4_7881,
    0xbc10_1a41_d918_87f2,
    0xbc7a_102e_bd4d_43f8,
    0x3c67_1369_5b45_78ac,
    0x3c25_0dd2_c4a0_a85e,
    0x3c78_6908_a94f_1ed5,
    0x3c63_cfc9_aa2e_1e3e,
    0xbc67_66c6_d498_26ba,
    0xbc6f_d11d_9708_e85a,
    0xbc44_5940_d7e0_a88b,
    0x3c66_dfed_52cf_2076,
    0xbc4c_2491_30c7_afd6,
    0x3bf4_83f9_28d8_0f20,
    0x3c60_6323_eaa0_9af7,
    0xbc62_9692_0436_683a,
    0x3c69_db47_ff1b_c66d,
    0x3c59_cef4_6bce_28e3,
    0x3c5b_13ee_280c_08e5,
    0xbc41_ab59_c70c_c677,
    0x3c6f_063b_1d7c_a844,
    0xbc3d_581f_e610_629a,
    0x3c24_4031_26cd_72fb,
    0x3c41_1c45_09ac_d9c8,
    0xbc6f_b5c7_9526_1e6c,
    0xbc5c_7db1_06c3_51f4,
    0x3c57_16e2_0ff5_09cc,
    0x3c59_e130_00b8_77cb,
    0x3c22_650a_d668_60cc,
    0xbc46_8d08_b93d_1bba,
    0xbc5d_7743_a2e8_9fb1,
    0x3c31_9ab4_39f1_ac95,
    0x3c5f_9912_8fd7_1218,
    0xbc59_1f05_0a1f_574c,
    0xbc4d_08d2_414d_c22f,
    0xbc4d_fbdb_39c3_0515,
    0xbc5e_a426_07f4_47a4,
    0xbc30_22c8_6175_7a0b,
    0x3c4d_ec40_dac5_0e46,
    0xbc48_877a_6069_9474,
    0x3c4b_561c_6db8_ac54,
    0xbc27_63fe_6e76_8d3b,
    0xbc3b_e6c8_7797_1b8c,
    0xbc3d_afd2_82b1_f6c3,
    0xbc3b_83a3_a005_b1be,
    0xbbd3_87a9_06d2_ddbf,
    0x3c2f_f036_d92d_7d7d,
    0xbbfc_cc73_9c2e_4cd4,
    0x0000_0000_0000_0000,
];

/// 1/ln 2, the double nearest, and the double nearest the rest.
const IL_HIGH: f64 = f64::from_bits(0x3ff7_1547_652b_82fe);
const IL_LOW: f64 = f64::from_bits(0x3c77_77d0_ffda_0d24);

/// ln 2, the double nearest.
const LN2: f64 = f64::from_bits(0x3fe6_2e42_fefa_39ef);

/// `ln(1 + z) − z + z²/2` over `z³`: 1/3, −1/4, …, 1/9, rounded.
const SERIES: [f64; 7] = [
    f64::from_bits(0x3fd5_5555_5555_5555),
    -0.25,
    f64::from_bits(0x3fc9_9999_9999_999a),
    -f64::from_bits(0x3fc5_5555_5555_5555),
    f64::from_bits(0x3fc2_4924_9249_2492),
    -0.125,
    f64::from_bits(0x3fbc_71c7_1c71_c71c),
];

/// Veltkamp's splitting constant, 2^27 + 1.
const SPLITTER: f64 = 134_217_729.0;

/// Beyond it `2^t` overflows float, or rounds to +0.
const LIMIT: f64 = 160.0;

/// The rounding test's half-width, relative (the lane errs by at most 2^-46.9).
const TEST_WIDTH: f64 = 1.0 / 17_592_186_044_416.0; // 2^-44

/// pow of every pair `(x[i], y[i])` of floats, correctly rounded to float where `x` is finite
/// and not zero and `y` finite, and an integer where `x` is negative; NaN elsewhere and where
/// undecided.
///
/// A negative `x` to an integer power `y` is `(−1)^y·|x|^y` (C99 F.9.4.4's pow, MPFR's and
/// CORE-MATH's), so its correctly rounded float is `|x|^y`'s, negated where `y` is odd:
/// rounding to nearest is symmetric about zero (an overflow to −inf, an underflow to −0). `y`
/// is odd where `y/2` (exact: a float halved in double) is no integer; every float from 2^24
/// on is even. In a random sweep a fifth of the pairs are such (half the bases are negative,
/// two fifths of the floats are integers past 2^23): they went to CORE-MATH one by one.
// The closure, not the function item, is what inlines the lane ([`super::column`]).
#[allow(clippy::redundant_closure)]
pub fn powf(x: &[f64], y: &[f64], out: &mut Vec<f64>) {
    super::column(
        x,
        y,
        out,
        #[inline(always)]
        |x, y| {
            let value = lane(x.abs(), y);
            let integer = y.trunc() == y;
            let odd = integer & ((y * 0.5).trunc() != y * 0.5);
            let value = if (x < 0.0) & odd { -value } else { value };
            if (x > 0.0) | ((x < 0.0) & integer) {
                value
            } else {
                f64::NAN
            }
        },
    );
}

/// powr of every pair `(x[i], y[i])` of floats, correctly rounded to float where `x` is
/// positive and finite and `y` finite (there it is pow), NaN elsewhere (powr is NaN at every
/// negative `x`) and where undecided.
// The closure, not the function item, is what inlines the lane ([`super::column`]).
#[allow(clippy::redundant_closure)]
pub fn powrf(x: &[f64], y: &[f64], out: &mut Vec<f64>) {
    super::column(
        x,
        y,
        out,
        #[inline(always)]
        |x, y| lane(x, y),
    );
}

/// Whether pow is NaN at `(x, y)`, which the column leaves NaN: C99's pow (F.9.4.4,
/// CORE-MATH's and MPFR's) is NaN at a NaN argument but for pow(x, ±0) = 1 and
/// pow(1, y) = 1, and at a finite `x < 0` with a finite `y` that is no integer (a negative
/// number has no real non-integer power); −inf to any power, and a negative number to ±inf,
/// are not NaN. Nowhere else is pow NaN: `nan_domains_are_core_maths` and
/// `pow_agrees_with_mpfr` check the test both ways.
#[inline(always)]
pub fn pow_is_nan(x: f64, y: f64) -> bool {
    let nan_argument = (x.is_nan() & (y != 0.0)) | (y.is_nan() & (x != 1.0));
    let negative_base = (x < 0.0) & (x > f64::NEG_INFINITY) & (y.abs() < f64::INFINITY);
    nan_argument | (negative_base & (y.trunc() != y))
}

/// Whether powr is NaN at `(x, y)`: exactly the NaN cases of its special values
/// (`crate::reference::fast::powrf`'s comment, IEEE 754's powr): a NaN argument, `x < 0`,
/// powr(±0, ±0), powr(+inf, ±0) and powr(1, ±inf). Elsewhere `x` is positive, finite and not
/// 1, or 0, +inf or 1 with a `y` that gives a number, and `x^y` is no NaN.
#[inline(always)]
pub fn powr_is_nan(x: f64, y: f64) -> bool {
    let zero_power = ((x == 0.0) | (x == f64::INFINITY)) & (y == 0.0);
    x.is_nan() | y.is_nan() | (x < 0.0) | zero_power | ((x == 1.0) & y.is_infinite())
}

/// Veltkamp's split: `v`'s high 26 bits and the rest (at most 27 bits), exactly.
#[inline(always)]
fn split(v: f64) -> (f64, f64) {
    let scaled = SPLITTER * v;
    let high = scaled - (scaled - v);
    (high, v - high)
}

/// `x^y` correctly rounded to float, or NaN (the proof is in the module's comment).
#[inline(always)]
fn lane(x: f64, y: f64) -> f64 {
    let bits = x.to_bits();
    let i = ((bits >> 45) & 127) as usize;
    let upper = i >= 64;
    // The biased exponent as a double: 2^52 + e + 1023 less 2^52 + 1023.
    let biased = f64::from_bits((bits >> 52) | 0x4330_0000_0000_0000);
    let e = biased - 4_503_599_627_371_519.0 + if upper { 1.0 } else { 0.0 };
    let m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    let m = if upper { m * 0.5 } else { m };
    let z = m * f64::from_bits(R[i]) - 1.0;
    let mut series = SERIES[6];
    for c in SERIES[..6].iter().rev() {
        series = series * z + c;
    }
    let lo = (z * z) * (z * series - 0.5);
    // z·IL_HIGH exactly (Dekker).
    let (z_high, z_low) = split(z);
    let (il_high, il_low) = split(IL_HIGH);
    let b_high = z * IL_HIGH;
    let b_low = ((z_high * il_high - b_high) + z_high * il_low + z_low * il_high) + z_low * il_low;
    let (a_high, a_low) = two_sum(e, f64::from_bits(T_HIGH[i]));
    let (l_high, s_low) = two_sum(a_high, b_high);
    let small = (f64::from_bits(T_LOW[i]) + z * IL_LOW) + lo * IL_HIGH;
    let l_low = s_low + ((a_low + b_low) + small);
    let (l_high_high, l_high_low) = split(l_high);
    let (t_high, t_err) = two_sum(y * l_high_high, y * l_high_low);
    let t_low = t_err + y * l_low;
    let far = t_high.abs() > LIMIT;
    let t_high = t_high.clamp(-LIMIT, LIMIT);
    let t_low = if far { 0.0 } else { t_low };
    let shifted = t_high + ROUNDING_SHIFT;
    let k = shifted - ROUNDING_SHIFT;
    let s = ((t_high - k) + t_low) * LN2;
    let mut p = TAYLOR[12];
    for c in TAYLOR[..12].iter().rev() {
        p = p * s + c;
    }
    // As in exp_column: `shifted`'s low bits count k.
    let k_bits = shifted
        .to_bits()
        .wrapping_sub(ROUNDING_SHIFT.to_bits())
        .wrapping_add(1023);
    let value = rounded(p * f64::from_bits(k_bits << 52), TEST_WIDTH);
    if x > 0.0 && x < f64::INFINITY && y.is_finite() {
        value
    } else {
        f64::NAN
    }
}

#[cfg(test)]
mod tests {
    use super::super::checks;
    use crate::num::fp::FloatType;
    use crate::reference::{binding, fast};
    use crate::spec::reference_id::ReferenceId;

    /// Every 31st block of each argument's floats against a set of the other (all of them
    /// with `CLACC_EVERY_FLOAT=1`), and random pairs: the column is CORE-MATH's pow, and
    /// powr's, wherever it decides.
    #[test]
    fn pow_is_core_maths() {
        checks::sweep_against_scalar(super::powf, fast::powf, "pow");
        checks::sweep_against_scalar(super::powrf, fast::powrf, "powr");
    }

    /// The domain tests are exactly where CORE-MATH's pow and powr (float and double) are NaN,
    /// on every 31st block of each argument against specials and random floats, both orders.
    #[test]
    fn nan_domains_are_core_maths() {
        for (nan_at, scalars, name) in [
            (
                super::pow_is_nan as fn(f64, f64) -> bool,
                [fast::powf, fast::pow],
                "pow",
            ),
            (super::powr_is_nan, [fast::powrf, fast::powr], "powr"),
        ] {
            for scalar in scalars {
                checks::nan_domain_matches(nan_at, scalar, name);
            }
        }
    }

    /// Special values, exact results and midpoints against MPFR's pow and powr.
    #[test]
    fn pow_agrees_with_mpfr() {
        let mut pairs = checks::special_pairs();
        for (x, y) in [
            (4.0, 1.5),
            (9.0, 0.5),
            (4097.0, 2.0),
            (2.0, -149.0),
            (2.0, 127.0),
            (2.0, 128.0),
            (0.5, 149.5),
            (1.0 + 2f64.powi(-23), 2f64.powi(30)),
            (1.0 - 2f64.powi(-24), -(2f64.powi(31))),
            (3.0, 80.0),
        ] {
            pairs.push((x, y));
        }
        for (x, y) in [(-8.0, 1.0 / 3.0), (-2.0, 0.5), (-2.0, 3.0), (-0.5, 1e20)] {
            pairs.push((x, y));
        }
        for (nan_at, id) in [
            (super::pow_is_nan as fn(f64, f64) -> bool, ReferenceId::Pow),
            (super::powr_is_nan, ReferenceId::Powr),
        ] {
            for (x, y) in &pairs {
                let correct = crate::reference::correctly_rounded_value(
                    binding::mpfr(id),
                    &[*x, *y],
                    FloatType::Float,
                );
                assert_eq!(nan_at(*x, *y), correct.is_nan(), "{id:?}({x:e}, {y:e})");
            }
        }
        for (column, id) in [
            (
                super::powf as fn(&[f64], &[f64], &mut Vec<f64>),
                ReferenceId::Pow,
            ),
            (super::powrf, ReferenceId::Powr),
        ] {
            let decided = checks::agree_with_mpfr(column, id, FloatType::Float, &pairs);
            assert!(
                decided > pairs.len() / 5,
                "{id:?}: {decided} of {}",
                pairs.len()
            );
        }
        let (x, y) = (
            [4.0, 9.0, 4097.0, -2.0, -2.0, -0.5, -0.5, -2.0],
            [1.5, 0.5, 2.0, 2.0, 3.0, 1e20, -3e9, 0.5],
        );
        let (mut pow, mut powr) = (Vec::new(), Vec::new());
        super::powf(&x, &y, &mut pow);
        super::powrf(&x, &y, &mut powr);
        assert_eq!(pow[..2], [8.0, 3.0]);
        assert_eq!(pow[3..7], [4.0, -8.0, 0.0, f64::INFINITY]);
        assert!(pow[2].is_nan() && pow[7].is_nan());
        assert_eq!(powr[..2], [8.0, 3.0]);
        assert!(powr[2..].iter().all(|value| value.is_nan()));
    }
}
